import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '@dataplatform/contract';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { planRoleGrants, planRoles, plans, roles, SUBSCRIPTION_LIVE_STATUSES } from '../../../db/schema/index.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { SubscriptionRow } from '../subscriptions/subscriptions.repository.js';

/** Why a plan's roles came or went; the audit entry of each grant and withdrawal carries it. */
export type GrantCause =
  | 'subscribed'
  | 'renewed'
  | 'plan_switched'
  | 'plan_roles_changed'
  | 'period_ended'
  | 'renewal_failed'
  | 'canceled'
  | 'account_deleted'
  | 'provider_event';

/** Who caused it, for the audit log: the subscriber, a superuser, or nobody (worker, provider). */
export type GrantActor = { id: string; email: string; ip: string | null } | null;

/** The roles a plan grants, by id. */
export async function listPlanRoleIds(db: DbOrTx, planId: string): Promise<string[]> {
  const rows = await db
    .select({ roleId: planRoles.roleId })
    .from(planRoles)
    .where(eq(planRoles.planId, planId))
    .orderBy(planRoles.roleId);
  return rows.map((row) => row.roleId);
}

function isLive(subscription: SubscriptionRow): boolean {
  return (SUBSCRIPTION_LIVE_STATUSES as readonly string[]).includes(subscription.status);
}

/**
 * Makes the roles held through `subscription` exactly what it pays for now: its plan's roles while it
 * is live (active or past due), none once it has ended (decision 046). Call in the transaction that
 * changed the subscription, with its row locked. Only rows this call really inserts or deletes are
 * audited, so a repeated or concurrent call grants and withdraws each role once. Hand-assigned roles
 * (`user_roles`) are another table and are never touched.
 */
export async function syncPlanGrants(
  tx: DbOrTx,
  audit: AuditService,
  input: { subscription: SubscriptionRow; cause: GrantCause; actor: GrantActor },
): Promise<void> {
  const { subscription, cause, actor } = input;
  let wanted: string[] = [];
  if (isLive(subscription) && subscription.planId) {
    // FOR SHARE waits out a plan edit changing its roles (it holds FOR UPDATE), and makes that edit
    // wait for this transaction: either way the edit's resync sees this subscription.
    await tx.select({ id: plans.id }).from(plans).where(eq(plans.id, subscription.planId)).for('share');
    wanted = await listPlanRoleIds(tx, subscription.planId);
  }
  const owner = eq(planRoleGrants.subscriptionId, subscription.id);
  const withdrawn = await tx
    .delete(planRoleGrants)
    .where(wanted.length === 0 ? owner : and(owner, notInArray(planRoleGrants.roleId, wanted)))
    .returning({ roleId: planRoleGrants.roleId });
  const granted =
    wanted.length === 0
      ? []
      : await tx
          .insert(planRoleGrants)
          .values(wanted.map((roleId) => ({ subscriptionId: subscription.id, roleId, userId: subscription.userId })))
          .onConflictDoNothing()
          .returning({ roleId: planRoleGrants.roleId });
  if (withdrawn.length === 0 && granted.length === 0) return;

  const changedIds = [...withdrawn, ...granted].map((row) => row.roleId);
  const names = new Map(
    (await tx.select({ id: roles.id, name: roles.name }).from(roles).where(inArray(roles.id, changedIds))).map(
      (row) => [row.id, row.name],
    ),
  );
  const entry = (roleId: string) => ({
    role_id: roleId,
    role_name: names.get(roleId) ?? null,
    subscription_id: subscription.id,
    plan_id: subscription.planId,
    cause,
  });
  for (const { roleId } of withdrawn) {
    await audit.recordAs(tx, actor, {
      action: AUDIT_ACTIONS.planRoleWithdraw,
      targetType: AUDIT_TARGET_TYPES.user,
      targetId: subscription.userId,
      before: entry(roleId),
      after: null,
    });
  }
  for (const { roleId } of granted) {
    await audit.recordAs(tx, actor, {
      action: AUDIT_ACTIONS.planRoleGrant,
      targetType: AUDIT_TARGET_TYPES.user,
      targetId: subscription.userId,
      before: null,
      after: entry(roleId),
    });
  }
}
