export { requireSuperuser as clientLoader } from '../../app/guards.js';
export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';
export { TenantsTab as default } from '../../features/admin/components/tenants-tab.js';
