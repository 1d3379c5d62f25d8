export { AboutUsPage as default } from '../features/marketing/pages/about-us-page.js';
