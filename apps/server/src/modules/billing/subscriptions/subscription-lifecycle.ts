import type { DbOrTx } from '../../../db/client.js';
import type { AuditService } from '../../audit/audit.service.js';
import { addBillingPeriod } from './billing-periods.js';
import { syncPlanGrants, type GrantActor } from '../plans/plan-grants.js';
import type { PlanRow } from '../plans/plans.repository.js';
import {
  findLiveSubscription,
  insertSubscription,
  updateSubscription,
  type SubscriptionRow,
} from './subscriptions.repository.js';

/**
 * Puts a user on `plan` for a fresh, paid period starting at `periodStart`: switches the live
 * subscription if there is one (never two live ones), else starts one; the plan's roles are granted
 * (and a previous plan's withdrawn) in the same transaction (decision 046). Call inside a transaction.
 */
export async function startPaidPeriod(
  tx: DbOrTx,
  audit: AuditService,
  input: { userId: string; plan: PlanRow; periodStart: Date; now: Date; actor: GrantActor },
): Promise<SubscriptionRow> {
  const periodEnd = addBillingPeriod(input.periodStart, input.plan.billingPeriod);
  const values = {
    planId: input.plan.id,
    status: 'active' as const,
    currentPeriodStart: input.periodStart,
    currentPeriodEnd: periodEnd,
    cancelAtPeriodEnd: false,
    canceledAt: null,
    failedAttempts: 0,
    nextAttemptAt: periodEnd,
    updatedAt: input.now,
  };
  const live = await findLiveSubscription(tx, input.userId, 'update');
  const subscription = live
    ? await updateSubscription(tx, live.id, values)
    : await insertSubscription(tx, { userId: input.userId, ...values });
  const cause = live && live.planId !== input.plan.id ? 'plan_switched' : 'subscribed';
  await syncPlanGrants(tx, audit, { subscription, cause, actor: input.actor });
  return subscription;
}
