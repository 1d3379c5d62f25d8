export { requireSuperuser as clientLoader } from '../../app/guards.js';
export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';
export { AuditLogTab as default } from '../../features/admin/components/audit-log-tab.js';
