export { StudioPage as default } from '../features/marketing/pages/studio-page.js';
