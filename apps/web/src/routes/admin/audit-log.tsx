export { AuditLogTab as default } from '../../features/admin/components/audit-log-tab.js';
