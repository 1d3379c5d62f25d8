export { requireSignedIn as clientLoader } from '../../app/guards.js';
export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';
export { PasswordTab as default } from '../../features/settings/components/password-tab.js';
