export { HighScaleTableauPage as default } from '../features/marketing/pages/high-scale-tableau-page.js';
