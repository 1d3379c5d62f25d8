export { RolePermissionsTab as default } from '../../features/admin/components/role-permissions-tab.js';
