export { UsersTab as default } from '../../features/admin/components/users-tab.js';
