export { SignupPage as default } from '../features/auth/components/signup-page.js';
