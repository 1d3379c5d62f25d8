export { NotFound as default } from '../app/not-found.js';
