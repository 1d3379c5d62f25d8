export { UserRolesTab as default } from '../../features/admin/components/user-roles-tab.js';
