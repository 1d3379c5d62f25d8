export { requireSuperuser as clientLoader } from '../../app/guards.js';
export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';
export { SsoTab as default } from '../../features/admin/components/sso-tab.js';
