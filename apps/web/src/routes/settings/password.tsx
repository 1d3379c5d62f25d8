export { PasswordTab as default } from '../../features/settings/components/password-tab.js';
