export { SsoCompletePage as default } from '../features/auth/components/sso-complete-page.js';
