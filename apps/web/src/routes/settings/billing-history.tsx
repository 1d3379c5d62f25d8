export { requireSignedIn as clientLoader } from '../../app/guards.js';
export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';
export { BillingHistoryTab as default } from '../../features/settings/components/billing-history-tab.js';
