export { requireSuperuser as clientLoader } from '../../app/guards.js';
export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';
export { ContactsTab as default } from '../../features/admin/components/contacts-tab.js';
