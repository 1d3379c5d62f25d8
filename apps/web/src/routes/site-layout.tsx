export { AppLayout as default } from '../app/layout/app-layout.js';
