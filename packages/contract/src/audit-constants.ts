// No zod here (decision 030): a screen that shows only these texts or limits does not load zod.
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
  /** A superuser turned it off for someone who lost their authenticator and recovery codes. */
  twoFactorReset: 'user.two_factor.reset',
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
  reportCreate: 'report.create',
  reportUpdate: 'report.update',
  reportDelete: 'report.delete',
  /** An earlier version of a report saved again as its newest. */
  reportRestore: 'report.restore',
  /** Who sees a report: every member of its tenant, or the members and roles it names. */
  reportVisibility: 'report.visibility',
  reportLinkCreate: 'report_link.create',
  reportLinkRevoke: 'report_link.revoke',
  /** A report mailed on a schedule, or an alert (issue 59): made, paused or resumed, deleted. */
  reportScheduleCreate: 'report_schedule.create',
  reportScheduleUpdate: 'report_schedule.update',
  reportScheduleDelete: 'report_schedule.delete',
  /** The sites allowed to frame a tenant's reports. */
  embedSettingsUpdate: 'embed.settings.update',
  /** A tenant's embed secret made anew (the old one stops signing at once); the secret is never recorded. */
  embedSecretRotate: 'embed.secret.rotate',
  /** A CSV or Parquet file uploaded as a table of the tenant's extract source. */
  extractCreate: 'extract.create',
  extractDelete: 'extract.delete',
  /** The agent answered a question: the model, its tokens and the SQL that ran (none when it replied in words). */
  agentAnswer: 'agent.answer',
  agentConversationDelete: 'agent.conversation.delete',
  /** Whether sample values of a tenant's short text columns go to the model. */
  agentSettingsUpdate: 'agent.settings.update',
  /** A paid subscription gave a user one of its plan's roles; `after.cause` says why (decision 046). */
  planRoleGrant: 'plan_role.grant',
  /** A subscription's role went away with it (period end, failed renewal, switch, ...); `before.cause` says why. */
  planRoleWithdraw: 'plan_role.withdraw',
  /** A superuser moved a customer's sandbox billing clock. */
  sandboxClockAdvance: 'sandbox_clock.advance',
} as const;

export const AUDIT_TARGET_TYPES = {
  user: 'user',
  role: 'role',
  permission: 'permission',
  file: 'file',
  tenant: 'tenant',
  contactSubmission: 'contact_submission',
  ssoConnection: 'sso_connection',
  session: 'session',
  report: 'report',
  extract: 'extract',
  agentConversation: 'agent_conversation',
  reportLink: 'report_link',
  reportSchedule: 'report_schedule',
} as const;
