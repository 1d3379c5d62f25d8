import type { DbOrTx } from '../../db/client.js';
import { addBillingPeriod } from './billing-periods.js';
import type { PlanRow } from './plans.repository.js';
import {
  findLiveSubscription,
  insertSubscription,
  updateSubscription,
  type SubscriptionRow,
} from './subscriptions.repository.js';

/**
 * Puts a user on `plan` for a fresh, paid period starting at `periodStart`: switches the live
 * subscription if there is one (never two live ones), else starts one. Call inside a transaction.
 */
export async function startPaidPeriod(
  tx: DbOrTx,
  input: { userId: string; plan: PlanRow; periodStart: Date; now: Date },
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
  if (live) return updateSubscription(tx, live.id, values);
  return insertSubscription(tx, { userId: input.userId, ...values });
}
