export { AdminArea as default } from '../features/admin/admin-area.js';
