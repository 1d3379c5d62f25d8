/**
 * Named permissions that guard admin operations. Superusers hold every one of them; other users
 * gain them through roles. The authorization issue seeds them in a migration.
 */
export const PERMISSIONS = {
  usersRead: 'users:read',
  usersWrite: 'users:write',
} as const;
export type PermissionName = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];
