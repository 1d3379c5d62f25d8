export { requireSuperuser as clientLoader } from '../../app/guards.js';
export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';
export { RolesTab as default } from '../../features/admin/components/roles-tab.js';
