import { randomUUID } from 'node:crypto';
import { billingMessages } from '@dataplatform/contract';
import type { DbOrTx } from '../../db/client.js';
import { createOutageTracker } from '../../lib/outage.js';
import { normalizeDecimal, toMinor } from '../../lib/money.js';
import type { BillingDeps } from './billing.deps.js';
import { addBillingPeriod, describePlan } from './billing-periods.js';
import { findCustomer } from './customers.repository.js';
import type { ChargeResult } from './payment-provider.js';
import { findDefaultPaymentMethod } from './payment-methods.repository.js';
import { findPlan, type PlanRow } from './plans.repository.js';
import {
  claimDueSubscriptions,
  findSubscription,
  updateSubscription,
  type SubscriptionRow,
} from './subscriptions.repository.js';
import { insertTransaction } from './transactions.repository.js';

const BATCH_SIZE = 20;

/**
 * Renews subscriptions whose period has ended: charges the default card, extends the period and
 * records the transaction. A failed charge makes the subscription past_due and is retried on the
 * configured schedule; after the last retry it is cancelled. Subscriptions cancelled at period end
 * simply end. Any number of instances may run it at once: rows are claimed with SKIP LOCKED and a
 * lease, and each attempt's charge carries an idempotency key, so a period is never charged twice.
 */
export function createRenewalWorker(deps: BillingDeps) {
  const { db, clock, config, provider, log } = deps;
  const retryDelaysMs = config.renewal.retryDelaysMs;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;
  const outage = createOutageTracker(log, 'renewal worker');

  /** Writes an outcome only while this worker still holds the claim it acted under. */
  async function settle(claimed: SubscriptionRow, apply: (tx: DbOrTx, current: SubscriptionRow) => Promise<void>) {
    await db.transaction(async (tx) => {
      const current = await findSubscription(tx, claimed.id, 'update');
      if (!current || current.claimId !== claimed.claimId || current.status === 'canceled') return;
      await apply(tx, current);
    });
  }

  async function charge(subscription: SubscriptionRow, plan: PlanRow): Promise<ChargeResult> {
    const customer = await findCustomer(db, subscription.userId, provider.name);
    const card = await findDefaultPaymentMethod(db, subscription.userId, provider.name);
    if (!customer || !card) {
      return { status: 'failed', providerPaymentId: null, reason: billingMessages.noDefaultPaymentMethod };
    }
    return provider.charge({
      customerId: customer.providerCustomerId,
      paymentMethodId: card.providerPaymentMethodId,
      amount: toMinor(plan.price),
      currency: plan.currency,
      description: describePlan(plan),
      metadata: { user_id: subscription.userId, subscription_id: subscription.id, purpose: 'renewal' },
      // One key per period and attempt: a second worker repeating this attempt gets the same payment.
      idempotencyKey: `renewal-${subscription.id}-${subscription.currentPeriodEnd.toISOString()}-${subscription.failedAttempts}`,
      offSession: true,
    });
  }

  async function renew(claimed: SubscriptionRow): Promise<void> {
    const now = clock.now();
    const release = { claimId: null, claimExpiresAt: null, updatedAt: now };

    if (claimed.cancelAtPeriodEnd) {
      await settle(claimed, async (tx, current) => {
        await updateSubscription(tx, current.id, {
          ...release,
          status: 'canceled',
          canceledAt: current.currentPeriodEnd,
          nextAttemptAt: null,
        });
      });
      return;
    }

    const plan = claimed.planId ? await findPlan(db, claimed.planId) : undefined;
    if (!plan) return;
    const result = await charge(claimed, plan);

    await settle(claimed, async (tx, current) => {
      await insertTransaction(tx, {
        userId: current.userId,
        subscriptionId: current.id,
        planId: plan.id,
        kind: 'renewal',
        amount: normalizeDecimal(plan.price),
        currency: plan.currency,
        status: result.status,
        errorMessage: result.status === 'failed' ? result.reason : null,
        description: describePlan(plan),
        provider: provider.name,
        providerPaymentId: result.providerPaymentId,
      });
      if (result.status === 'succeeded') {
        const periodStart = current.currentPeriodEnd;
        const periodEnd = addBillingPeriod(periodStart, plan.billingPeriod);
        await updateSubscription(tx, current.id, {
          ...release,
          status: 'active',
          currentPeriodStart: periodStart,
          currentPeriodEnd: periodEnd,
          failedAttempts: 0,
          nextAttemptAt: periodEnd,
        });
        return;
      }
      const failedAttempts = current.failedAttempts + 1;
      const retryDelay = retryDelaysMs[failedAttempts - 1];
      await updateSubscription(
        tx,
        current.id,
        retryDelay === undefined
          ? { ...release, status: 'canceled', canceledAt: now, failedAttempts, nextAttemptAt: null }
          : { ...release, status: 'past_due', failedAttempts, nextAttemptAt: new Date(now.getTime() + retryDelay) },
      );
    });
  }

  /** Renews everything due now; answers how many subscriptions it handled. */
  async function runOnce(): Promise<number> {
    let handled = 0;
    for (;;) {
      const now = clock.now();
      const claimId = randomUUID();
      const claimed = await claimDueSubscriptions(db, {
        now,
        claimId,
        claimExpiresAt: new Date(now.getTime() + config.renewal.claimMs),
        limit: BATCH_SIZE,
      });
      for (const subscription of claimed) {
        try {
          await renew(subscription);
        } catch (error) {
          // The claim runs out and another pass retries with the same idempotency key.
          log.error({ err: error, subscriptionId: subscription.id }, 'renewal failed');
        }
        handled += 1;
      }
      if (claimed.length < BATCH_SIZE) return handled;
    }
  }

  /** Joins a run in progress rather than starting a second one in this instance. */
  function drain(): Promise<number> {
    running ??= runOnce()
      .then((handled) => {
        outage.succeeded();
        return handled;
      })
      .catch((error: unknown) => {
        outage.failed(error);
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  function schedule() {
    if (stopped || config.renewal.pollIntervalMs <= 0) return;
    timer = setTimeout(() => {
      void drain().finally(schedule);
    }, config.renewal.pollIntervalMs);
    timer.unref();
  }

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      if (config.renewal.pollIntervalMs > 0) void drain();
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

export type RenewalWorker = ReturnType<typeof createRenewalWorker>;
