export { requireSuperuser as clientLoader } from '../../app/guards.js';
export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';
export { UsersTab as default } from '../../features/admin/components/users-tab.js';
