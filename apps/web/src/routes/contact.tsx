export { ContactPage as default } from '../features/contact/components/contact-page.js';
