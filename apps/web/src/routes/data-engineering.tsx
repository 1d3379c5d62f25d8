export { DataEngineeringPage as default } from '../features/marketing/pages/data-engineering-page.js';
