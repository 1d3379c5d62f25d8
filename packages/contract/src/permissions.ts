/**
 * Named permissions that guard admin operations. Superusers hold every one of them; other users
 * gain them through roles. A migration seeds exactly this set (keep the two in step).
 */
export const PERMISSIONS = {
  usersRead: 'users:read',
  usersWrite: 'users:write',
  rolesRead: 'roles:read',
  rolesWrite: 'roles:write',
  tenantsRead: 'tenants:read',
  tenantsWrite: 'tenants:write',
  plansWrite: 'plans:write',
  contactRead: 'contact:read',
  contactWrite: 'contact:write',
  auditRead: 'audit:read',
  reportsWrite: 'reports:write',
  sourcesWrite: 'sources:write',
  agentUse: 'agent:use',
  embedManage: 'embed:manage',
} as const;
export type PermissionName = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];

export const ALL_PERMISSIONS: readonly PermissionName[] = Object.values(PERMISSIONS);

/** What each permission lets its holder do, for the seeded rows' descriptions. */
export const PERMISSION_DESCRIPTIONS: Record<PermissionName, string> = {
  'users:read': 'List and read user accounts',
  'users:write': 'Create, update and delete user accounts',
  'roles:read': 'List roles, permissions and their assignments',
  'roles:write': 'Create, update and delete roles and permissions, and assign them',
  'tenants:read': 'List and read tenants',
  'tenants:write': 'Create, update and delete tenants, check their databases, manage members',
  'plans:write': 'Create, update and delete subscription plans',
  'contact:read': 'Read contact form submissions',
  'contact:write': 'Change the status of contact form submissions',
  'audit:read': 'Read the audit log',
  'reports:write': 'Create, change, delete and restore Studio reports of the tenants one belongs to',
  'sources:write': 'Upload and delete Studio extracts of the tenants one belongs to',
  'agent:use': 'Ask the agent and build blocks with it over the sources of the tenants one belongs to',
  'embed:manage':
    'Choose the sites that may embed the reports of the tenants one belongs to, and rotate their embed secret',
};
