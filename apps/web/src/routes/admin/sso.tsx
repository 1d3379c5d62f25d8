export { SsoTab as default } from '../../features/admin/components/sso-tab.js';
