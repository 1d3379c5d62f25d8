export { RolesTab as default } from '../../features/admin/components/roles-tab.js';
