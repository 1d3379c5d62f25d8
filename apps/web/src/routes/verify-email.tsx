export { VerifyEmailPage as default } from '../features/auth/components/verify-email-page.js';
