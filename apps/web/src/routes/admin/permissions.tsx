export { PermissionsTab as default } from '../../features/admin/components/permissions-tab.js';
