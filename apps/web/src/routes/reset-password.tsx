export { ResetPasswordPage as default } from '../features/auth/components/reset-password-page.js';
