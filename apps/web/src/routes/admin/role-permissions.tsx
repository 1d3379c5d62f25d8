export { requireSuperuser as clientLoader } from '../../app/guards.js';
export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';
export { RolePermissionsTab as default } from '../../features/admin/components/role-permissions-tab.js';
