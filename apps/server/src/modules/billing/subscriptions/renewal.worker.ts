import { randomUUID } from 'node:crypto';
import { billingMessages } from '@dataplatform/contract';
import type { DbOrTx } from '../../../db/client.js';
import type { ServiceMetrics } from '../../../lib/metrics.js';
import { createOutageTracker } from '../../../lib/outage.js';
import { normalizeDecimal, toMinor } from '../../../lib/money.js';
import type { BillingDeps } from '../billing.deps.js';
import { addBillingPeriod, describePlan } from './billing-periods.js';
import { findCustomer } from '../payment-methods/customers.repository.js';
import type { ChargeResult } from '../providers/payment-provider.js';
import { findDefaultPaymentMethod } from '../payment-methods/payment-methods.repository.js';
import { findPlan, type PlanRow } from '../plans/plans.repository.js';
import {
  claimDueSubscriptions,
  findSubscription,
  updateSubscription,
  type SubscriptionRow,
} from './subscriptions.repository.js';
import { insertTransaction } from '../transactions.repository.js';
import { syncPlanGrants, type GrantCause } from '../plans/plan-grants.js';

const BATCH_SIZE = 20;
/** Renewals and retries one sandbox clock move may run: more than three years of monthly periods and their retries. */
const MAX_STEPS_PER_ADVANCE = 400;

/**
 * Renews subscriptions whose period has ended: charges the default card, extends the period and
 * records the transaction. A failed charge makes the subscription past_due and is retried on the
 * configured schedule; after the last retry it is cancelled. Subscriptions cancelled at period end
 * simply end. Any number of instances may run it at once: rows are claimed with SKIP LOCKED and a
 * lease, and each attempt's charge carries an idempotency key, so a period is never charged twice.
 */
export function createRenewalWorker(deps: BillingDeps & { metrics: ServiceMetrics }) {
  const { db, clock, config, provider, log, metrics, audit } = deps;
  const retryDelaysMs = config.renewal.retryDelaysMs;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;
  /** Set by stop(): the batch in progress finishes, no further batch or pass starts. */
  let stopping = false;
  const outage = createOutageTracker(log, 'renewal worker');

  /**
   * Writes an outcome only while this worker still holds the claim it acted under; answers whether
   * it did.
   */
  async function settle(
    claimed: SubscriptionRow,
    apply: (tx: DbOrTx, current: SubscriptionRow) => Promise<void>,
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      const current = await findSubscription(tx, claimed.id, 'update');
      if (!current || current.claimId !== claimed.claimId || current.status === 'canceled') return false;
      await apply(tx, current);
      return true;
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

  /** Writes the subscription's new state and brings the roles it grants in line with it. */
  async function moveTo(
    tx: DbOrTx,
    id: string,
    values: Parameters<typeof updateSubscription>[2],
    cause: GrantCause,
  ): Promise<void> {
    const subscription = await updateSubscription(tx, id, values);
    await syncPlanGrants(tx, audit, { subscription, cause, actor: null });
  }

  /** Handles one claimed subscription at `now` (the real clock, or a sandbox customer's test clock). */
  async function renew(claimed: SubscriptionRow, now: Date): Promise<void> {
    const release = { claimId: null, claimExpiresAt: null, updatedAt: now };

    if (claimed.cancelAtPeriodEnd) {
      await settle(claimed, async (tx, current) => {
        await moveTo(
          tx,
          current.id,
          { ...release, status: 'canceled', canceledAt: current.currentPeriodEnd, nextAttemptAt: null },
          'period_ended',
        );
      });
      return;
    }

    const plan = claimed.planId ? await findPlan(db, claimed.planId) : undefined;
    if (!plan) return;
    const result = await charge(claimed, plan);

    const recorded = await settle(claimed, async (tx, current) => {
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
        await moveTo(
          tx,
          current.id,
          {
            ...release,
            status: 'active',
            currentPeriodStart: periodStart,
            currentPeriodEnd: periodEnd,
            failedAttempts: 0,
            nextAttemptAt: periodEnd,
          },
          'renewed',
        );
        return;
      }
      const failedAttempts = current.failedAttempts + 1;
      const retryDelay = retryDelaysMs[failedAttempts - 1];
      // Past due keeps the roles while retries remain; the last failure ends the subscription and them.
      await moveTo(
        tx,
        current.id,
        retryDelay === undefined
          ? { ...release, status: 'canceled', canceledAt: now, failedAttempts, nextAttemptAt: null }
          : { ...release, status: 'past_due', failedAttempts, nextAttemptAt: new Date(now.getTime() + retryDelay) },
        'renewal_failed',
      );
    });
    if (!recorded) return;
    log.info({ subscriptionId: claimed.id, outcome: result.status }, 'renewal recorded');
    // Counted once it is on record: a charge whose outcome another instance settled is theirs.
    if (result.status === 'failed') metrics.renewalFailed('payment_failed');
  }

  /**
   * Renews everything due at `at()` (of one user when `userId` is given); answers how many
   * subscriptions it handled. The claim's lease runs on the real clock whatever time is billed.
   */
  async function runDue(at: () => Date, userId?: string): Promise<number> {
    let handled = 0;
    for (;;) {
      const now = at();
      const leaseStart = clock.now();
      const claimId = randomUUID();
      const claimed = await claimDueSubscriptions(db, {
        now,
        leaseNow: leaseStart,
        claimId,
        claimExpiresAt: new Date(leaseStart.getTime() + config.renewal.claimMs),
        limit: BATCH_SIZE,
        userId,
      });
      for (const subscription of claimed) {
        try {
          await renew(subscription, now);
        } catch (error) {
          // The claim runs out and another pass retries with the same idempotency key.
          log.error({ err: error, subscriptionId: subscription.id }, 'renewal failed');
          metrics.renewalFailed('error');
        }
        handled += 1;
      }
      // A stop lets this batch finish (each subscription charged and recorded, or released) and
      // claims no other: what is left stays due for the next pass of any instance.
      if (userId !== undefined) {
        // One customer has at most one live subscription: claim again until nothing is due at its
        // time (several periods or retries may fall inside one move), within a fixed bound.
        if (claimed.length === 0 || handled >= MAX_STEPS_PER_ADVANCE) return handled;
        continue;
      }
      if (claimed.length < BATCH_SIZE || stopping) return handled;
    }
  }

  /** Renews everything due now; answers how many subscriptions it handled. */
  const runOnce = (): Promise<number> => runDue(() => clock.now());

  /** Joins a run in progress rather than starting a second one in this instance. */
  function drain(): Promise<number> {
    if (!running && stopping) return Promise.resolve(0);
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
    /**
     * The sandbox's test clock (decision 046): runs what is due for one user at that user's billing
     * time `now`, through the same renewal code as the worker's passes.
     */
    runDueFor: (userId: string, now: Date): Promise<number> => runDue(() => now, userId),
    start() {
      if (!stopped) return;
      stopped = false;
      stopping = false;
      if (config.renewal.pollIntervalMs > 0) void drain();
      schedule();
    },
    /** Lets the batch in progress finish, starts nothing after it, and resolves once it is done. */
    async stop() {
      stopped = true;
      stopping = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
