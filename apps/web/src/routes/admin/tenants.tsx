export { TenantsTab as default } from '../../features/admin/components/tenants-tab.js';
