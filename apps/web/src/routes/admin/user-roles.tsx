export { requireSuperuser as clientLoader } from '../../app/guards.js';
export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';
export { UserRolesTab as default } from '../../features/admin/components/user-roles-tab.js';
