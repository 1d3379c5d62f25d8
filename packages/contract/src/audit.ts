import { z } from 'zod';
import { PaginationQuerySchema, pageOf } from './common.js';

/**
 * What the audit log records. Other areas add theirs here (`tenant.create`, `plan.update`, ...); the
 * column is free text so a new action needs no migration.
 */
export const AUDIT_ACTIONS = {
  userCreate: 'user.create',
  userUpdate: 'user.update',
  userDelete: 'user.delete',
  emailVerify: 'user.email.verify',
  emailChange: 'user.email.change',
  roleCreate: 'role.create',
  roleUpdate: 'role.update',
  roleDelete: 'role.delete',
  permissionCreate: 'permission.create',
  permissionUpdate: 'permission.update',
  permissionDelete: 'permission.delete',
  userRoleAdd: 'user.role.add',
  userRolesReplace: 'user.roles.replace',
  rolePermissionAdd: 'role.permission.add',
  rolePermissionsReplace: 'role.permissions.replace',
  fileDownload: 'file.download',
  tenantCreate: 'tenant.create',
  tenantUpdate: 'tenant.update',
  tenantDelete: 'tenant.delete',
  tenantMembersReplace: 'tenant.members.replace',
  contactStatusUpdate: 'contact.status.update',
  twoFactorEnable: 'user.two_factor.enable',
  twoFactorDisable: 'user.two_factor.disable',
  twoFactorRecoveryCodeUsed: 'user.two_factor.recovery_code_used',
  twoFactorThrottled: 'user.two_factor.throttled',
  ssoConnectionCreate: 'sso_connection.create',
  ssoConnectionUpdate: 'sso_connection.update',
  ssoConnectionDelete: 'sso_connection.delete',
  ssoSignIn: 'sso.sign_in',
  ssoLink: 'sso.link',
  /** A user signed one of their own sessions out, or an admin signed out one of someone's (decision 027). */
  sessionRevoke: 'session.revoke',
  /** A user signed out every session but the one they asked from. */
  sessionsRevokeOthers: 'session.revoke_others',
  /** A superuser signed a user out everywhere. */
  sessionsRevokeAll: 'session.revoke_all',
} as const;
/** @public Part of the contract for API clients, though no code of this repository names it. */
export type AuditAction = (typeof AUDIT_ACTIONS)[keyof typeof AUDIT_ACTIONS];

export const AUDIT_TARGET_TYPES = {
  user: 'user',
  role: 'role',
  permission: 'permission',
  file: 'file',
  tenant: 'tenant',
  contactSubmission: 'contact_submission',
  ssoConnection: 'sso_connection',
  session: 'session',
} as const;

const JsonObjectSchema = z.record(z.string(), z.unknown());

/** One row of the audit log: who did what to which thing, from where, and when. */
export const AuditEntrySchema = z.object({
  id: z.number().int(),
  actor_id: z.uuid().nullable(),
  actor_email: z.string().nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  before: JsonObjectSchema.nullable(),
  after: JsonObjectSchema.nullable(),
  ip: z.string().nullable(),
  created_at: z.iso.datetime(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditEntriesSchema = pageOf(AuditEntrySchema);
export type AuditEntries = z.infer<typeof AuditEntriesSchema>;

/** `GET /audit/`: newest first; every filter is optional and they combine with AND. */
export const AuditQuerySchema = PaginationQuerySchema.extend({
  actor_id: z.uuid({ error: 'Invalid id' }).optional(),
  target_type: z.string().trim().min(1).max(100).optional(),
  target_id: z.string().trim().min(1).max(200).optional(),
  action: z.string().trim().min(1).max(100).optional(),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;
