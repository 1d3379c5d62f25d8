export { TransparencyPipelinePage as default } from '../features/marketing/pages/transparency-pipeline-page.js';
