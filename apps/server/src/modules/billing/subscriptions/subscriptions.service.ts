import { randomUUID } from 'node:crypto';
import {
  billingMessages,
  type BillingConfig,
  type PaginationQuery,
  type PaymentIntent,
  type PaymentIntentCreate,
  type Subscribe,
  type Subscription,
  type Transactions,
} from '@dataplatform/contract';
import { badRequest, conflict, notFound, paymentRequired } from '../../../lib/errors.js';
import { fromMinor, toMinor } from '../../../lib/money.js';
import { isUuid } from '../../../lib/uuid.js';
import type { Actor, AuthContext } from '../../../lib/auth-context.js';
import type { DbOrTx } from '../../../db/client.js';
import { mapPage } from '../../../lib/pagination.js';
import type { BillingDeps } from '../billing.deps.js';
import { describePlan } from './billing-periods.js';

/** Longer than any provider call may take (the SDK's own timeout is well under it). */
const CHARGE_LEASE_MS = 2 * 60 * 1000;
import { toSubscription, toTransaction } from '../billing.mapper.js';
import type { CustomerAccounts } from '../payment-methods/customers.service.js';
import { claimChargeLease, findCustomer, releaseChargeLease } from '../payment-methods/customers.repository.js';
import { findOwnPaymentMethod, listPaymentMethods } from '../payment-methods/payment-methods.repository.js';
import { findPlan, listRolesOfPlans, type PlanRow } from '../plans/plans.repository.js';
import { syncPlanGrants } from '../plans/plan-grants.js';
import { readClockOffset } from '../providers/sandbox.repository.js';
import { startPaidPeriod } from './subscription-lifecycle.js';
import {
  cancelLiveSubscriptionNow,
  findLiveSubscription,
  findLiveSubscriptionWithPlan,
  updateSubscription,
  type SubscriptionWithPlan,
} from './subscriptions.repository.js';
import { insertTransaction, listTransactions } from '../transactions.repository.js';

/** Keys a client may not set in `provider_metadata`: the server's own. */
const RESERVED_METADATA = new Set(['user_id', 'plan_id', 'subscription_id', 'purpose', 'transaction_id']);

export function createSubscriptionsService(
  deps: BillingDeps & {
    customers: CustomerAccounts;
    /** The sandbox, outside production. */ sandboxClockLive: boolean;
  },
) {
  const { db, clock, config, provider, customers, audit, sandboxClockLive } = deps;

  /** Billing time for this customer: the real clock, or with the sandbox, its test clock (decision 046). */
  async function customerNow(userId: string): Promise<Date> {
    const now = clock.now();
    if (provider.name !== 'sandbox') return now;
    return new Date(now.getTime() + (await readClockOffset(db, userId)) * 1000);
  }

  async function activePlan(planId: string): Promise<PlanRow> {
    const plan = await findPlan(db, planId);
    if (!plan) throw notFound(billingMessages.planNotFound);
    if (!plan.isActive) throw badRequest(billingMessages.planInactive);
    return plan;
  }

  async function currentWithPlan(userId: string): Promise<Subscription> {
    const current = await findLiveSubscriptionWithPlan(db, userId);
    if (!current) throw notFound(billingMessages.noActiveSubscription);
    return withPlanRoles(db, current);
  }

  return {
    config(): BillingConfig {
      return {
        provider: provider.name,
        publishable_key: provider.publishableKey,
        currency: config.currency,
        sandbox_clock: sandboxClockLive,
      };
    },

    async current(auth: AuthContext): Promise<Subscription | null> {
      const current = await findLiveSubscriptionWithPlan(db, auth.user.id);
      return current ? withPlanRoles(db, current) : null;
    },

    /**
     * Charges the plan's price for a first period with the chosen card and, once paid, starts (or
     * switches to) the plan. A decline is a 402 with the provider's reason, a failed transaction and
     * no subscription. Switching starts a fresh period at the full price (no proration).
     */
    async subscribe(auth: Actor, planId: string, body: Subscribe): Promise<Subscription> {
      if (body.plan_id !== undefined && body.plan_id !== planId) throw badRequest(billingMessages.planIdMismatch);
      const user = auth.user;
      const plan = await activePlan(planId);
      const card = await findOwnPaymentMethod(
        db,
        user.id,
        provider.name,
        body.payment_method_id,
        !isUuid(body.payment_method_id),
      );
      if (!card) {
        const saved = await listPaymentMethods(db, user.id, provider.name);
        throw badRequest(
          saved.length === 0 ? billingMessages.addPaymentMethodFirst : billingMessages.paymentMethodNotFound,
        );
      }

      const customer = await findCustomer(db, user.id, provider.name);
      if (!customer) throw badRequest(billingMessages.paymentMethodNotFound);
      // One charge of a customer at a time, across instances: a double click or a second tab must
      // not pay twice. The lease outlives any provider call, and is released whatever happens.
      const leaseStart = clock.now();
      const leaseEnd = new Date(leaseStart.getTime() + CHARGE_LEASE_MS);
      if (!(await claimChargeLease(db, user.id, provider.name, leaseStart, leaseEnd))) {
        throw conflict(billingMessages.paymentInProgress);
      }
      try {
        const live = await findLiveSubscription(db, user.id);
        if (live && live.planId === plan.id && live.status === 'active') {
          if (!live.cancelAtPeriodEnd) throw conflict(billingMessages.alreadySubscribed);
          // Subscribing again to a plan cancelled at period end simply keeps it: nothing to charge.
          await updateSubscription(db, live.id, { cancelAtPeriodEnd: false, updatedAt: clock.now() });
          return await currentWithPlan(user.id);
        }

        const transactionId = randomUUID();
        const amount = toMinor(plan.price);
        const clientMetadata = Object.fromEntries(
          Object.entries(body.provider_metadata ?? {})
            .filter(([key]) => !RESERVED_METADATA.has(key))
            .map(([key, value]) => [key, String(value)]),
        );
        const result = await provider.charge({
          customerId: customer.providerCustomerId,
          paymentMethodId: card.providerPaymentMethodId,
          amount,
          currency: plan.currency,
          description: describePlan(plan),
          metadata: {
            ...clientMetadata,
            user_id: user.id,
            plan_id: plan.id,
            transaction_id: transactionId,
            purpose: 'subscribe',
          },
          idempotencyKey: `subscribe-${transactionId}`,
          offSession: false,
        });

        const base = {
          id: transactionId,
          userId: user.id,
          planId: plan.id,
          kind: 'subscribe' as const,
          amount: fromMinor(amount),
          currency: plan.currency,
          description: describePlan(plan),
          provider: provider.name,
          providerPaymentId: result.providerPaymentId,
        };
        if (result.status === 'failed') {
          await insertTransaction(db, { ...base, status: 'failed', errorMessage: result.reason });
          throw paymentRequired(result.reason);
        }
        const now = await customerNow(user.id);
        const actor = { id: user.id, email: user.email, ip: auth.ip };
        await db.transaction(async (tx) => {
          const subscription = await startPaidPeriod(tx, audit, {
            userId: user.id,
            plan,
            periodStart: now,
            now,
            actor,
          });
          await insertTransaction(tx, { ...base, status: 'succeeded', subscriptionId: subscription.id });
        });
        return await currentWithPlan(user.id);
      } finally {
        await releaseChargeLease(db, user.id, provider.name);
      }
    },

    /**
     * Cancels at the end of the paid period (it stays active, and its roles held, until then); a
     * past-due one ends now and its plan's roles go with it.
     */
    async cancel(auth: Actor): Promise<Subscription> {
      const now = await customerNow(auth.user.id);
      const updated = await db.transaction(async (tx) => {
        const live = await findLiveSubscription(tx, auth.user.id, 'update');
        if (!live) throw notFound(billingMessages.noActiveSubscription);
        if (live.status === 'past_due') {
          const ended = await updateSubscription(tx, live.id, {
            status: 'canceled',
            canceledAt: now,
            nextAttemptAt: null,
            updatedAt: now,
          });
          const actor = { id: auth.user.id, email: auth.user.email, ip: auth.ip };
          await syncPlanGrants(tx, audit, { subscription: ended, cause: 'canceled', actor });
          return ended;
        }
        return updateSubscription(tx, live.id, { cancelAtPeriodEnd: true, updatedAt: now });
      });
      if (updated.status === 'canceled') {
        const plan = (await findPlan(db, updated.planId!))!;
        return withPlanRoles(db, { ...updated, plan });
      }
      return currentWithPlan(auth.user.id);
    },

    async transactions(auth: AuthContext, page: PaginationQuery): Promise<Transactions> {
      return mapPage(await listTransactions(db, auth.user.id, page), toTransaction);
    },

    /**
     * A payment for a plan's amount that the client confirms (the provider's SDK handles any
     * authentication); a pending transaction now, its outcome from the provider's event.
     */
    async createPaymentIntent(auth: AuthContext, body: PaymentIntentCreate): Promise<PaymentIntent> {
      const plan = await activePlan(body.plan_id);
      const customerId = await customers.ensure(auth.user);
      const transactionId = randomUUID();
      const amount = toMinor(plan.price);
      const intent = await provider.createPaymentIntent({
        customerId,
        amount,
        currency: plan.currency,
        description: describePlan(plan),
        metadata: { user_id: auth.user.id, plan_id: plan.id, transaction_id: transactionId, purpose: 'subscribe' },
        idempotencyKey: `payment-intent-${transactionId}`,
      });
      await insertTransaction(db, {
        id: transactionId,
        userId: auth.user.id,
        planId: plan.id,
        kind: 'payment_intent',
        amount: fromMinor(amount),
        currency: plan.currency,
        status: 'pending',
        description: describePlan(plan),
        provider: provider.name,
        providerPaymentId: intent.id,
      });
      return {
        id: intent.id,
        client_secret: intent.clientSecret,
        amount: fromMinor(amount),
        currency: plan.currency,
        status: intent.status,
        transaction_id: transactionId,
      };
    },

    /**
     * Before an account goes: its subscription ends (so no renewal can charge it) and its plan's roles
     * are withdrawn, then its cards are detached and its customer deleted at the provider. A provider
     * failure stops the deletion.
     */
    async closeAccount(userId: string): Promise<void> {
      await db.transaction(async (tx) => {
        for (const subscription of await cancelLiveSubscriptionNow(tx, userId, clock.now())) {
          await syncPlanGrants(tx, audit, { subscription, cause: 'account_deleted', actor: null });
        }
      });
      const cards = await listPaymentMethods(db, userId, provider.name);
      for (const card of cards) await provider.detachPaymentMethod(card.providerPaymentMethodId);
      const customer = await findCustomer(db, userId, provider.name);
      if (customer) await provider.deleteCustomer(customer.providerCustomerId);
    },
  };
}

/** The subscription as the API shows it, its plan with the roles it grants. */
export async function withPlanRoles(db: DbOrTx, row: SubscriptionWithPlan): Promise<Subscription> {
  const roles = await listRolesOfPlans(db, [row.plan.id]);
  return toSubscription(row, roles.get(row.plan.id) ?? []);
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
