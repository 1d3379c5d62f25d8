export { requireSuperuser as clientLoader } from '../../app/guards.js';
export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';
export { PermissionsTab as default } from '../../features/admin/components/permissions-tab.js';
