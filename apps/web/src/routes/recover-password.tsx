export { RecoverPasswordPage as default } from '../features/auth/components/recover-password-page.js';
