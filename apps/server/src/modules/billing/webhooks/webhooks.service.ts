import type { TransactionStatus } from '@dataplatform/contract';
import type { DbOrTx } from '../../../db/client.js';
import type { BillingDeps } from '../billing.deps.js';
import type { ProviderEventPayload } from '../providers/payment-provider.js';
import {
  deletePaymentMethod,
  findPaymentMethodByProviderId,
  promoteNewest,
  updatePaymentMethodCard,
} from '../payment-methods/payment-methods.repository.js';
import { findPlan } from '../plans/plans.repository.js';
import { startPaidPeriod } from '../subscriptions/subscription-lifecycle.js';
import {
  findLatestEndedAt,
  findLiveSubscription,
  updateSubscription,
} from '../subscriptions/subscriptions.repository.js';
import { deleteCustomerByProviderId } from '../payment-methods/customers.repository.js';
import { syncPlanGrants } from '../plans/plan-grants.js';
import { findTransactionByProviderPaymentId, updateTransaction } from '../transactions.repository.js';
import { recordEvent } from './webhooks.repository.js';

/** What an event means for us, read from Stripe's event shape. */
type EventEffect =
  | {
      kind: 'payment';
      providerPaymentId: string;
      status: TransactionStatus;
      errorMessage: string | null;
      paymentCreatedAt: Date | null;
    }
  | {
      kind: 'payment_method_updated';
      providerPaymentMethodId: string;
      card: { brand: string; lastFour: string; expMonth: number; expYear: number };
    }
  | { kind: 'payment_method_detached'; providerPaymentMethodId: string }
  | { kind: 'customer_deleted'; providerCustomerId: string }
  | { kind: 'none' };

const PAYMENT_STATUS_BY_EVENT: Record<string, TransactionStatus> = {
  'payment_intent.succeeded': 'succeeded',
  'payment_intent.payment_failed': 'failed',
  'payment_intent.canceled': 'failed',
  'payment_intent.processing': 'pending',
};

/** Among events of the same second, the later stage wins (pending, then failed, then succeeded). */
const STATUS_RANK: Record<TransactionStatus, number> = { pending: 0, failed: 1, succeeded: 2 };

const fromSeconds = (seconds: unknown) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);
const text = (value: unknown) => (typeof value === 'string' ? value : null);

export function interpretEvent(event: ProviderEventPayload): EventEffect {
  const object = event.data.object;
  const id = text(object.id);
  if (!id) return { kind: 'none' };
  const paymentStatus = PAYMENT_STATUS_BY_EVENT[event.type];
  if (paymentStatus) {
    const lastError = object.last_payment_error as { message?: unknown } | null | undefined;
    return {
      kind: 'payment',
      providerPaymentId: id,
      status: paymentStatus,
      errorMessage:
        paymentStatus === 'failed'
          ? (text(lastError?.message) ??
            (event.type === 'payment_intent.canceled' ? 'Payment canceled' : 'Payment failed'))
          : null,
      paymentCreatedAt: fromSeconds(object.created),
    };
  }
  // The customer is gone at the provider (deleted in its dashboard, say): nothing can be charged, so
  // the subscription ends now and its plan's roles with it (decision 046).
  if (event.type === 'customer.deleted') return { kind: 'customer_deleted', providerCustomerId: id };
  if (event.type === 'payment_method.detached') return { kind: 'payment_method_detached', providerPaymentMethodId: id };
  if (event.type === 'payment_method.updated' || event.type === 'payment_method.automatically_updated') {
    const card = object.card as Record<string, unknown> | undefined;
    if (
      !card ||
      typeof card.brand !== 'string' ||
      typeof card.last4 !== 'string' ||
      typeof card.exp_month !== 'number' ||
      typeof card.exp_year !== 'number'
    ) {
      return { kind: 'none' };
    }
    return {
      kind: 'payment_method_updated',
      providerPaymentMethodId: id,
      card: { brand: card.brand, lastFour: card.last4, expMonth: card.exp_month, expYear: card.exp_year },
    };
  }
  return { kind: 'none' };
}

/**
 * Applies provider events (the Stripe webhook, or the sandbox directly) exactly once each: the
 * event id is recorded in the transaction that applies the effect. State only moves forward: an
 * event older than what a row already reflects changes nothing, so delivery order does not matter.
 */
export function createWebhooksService(deps: BillingDeps) {
  const { db, clock, provider, log, audit } = deps;

  async function applyPayment(tx: DbOrTx, effect: Extract<EventEffect, { kind: 'payment' }>, eventAt: Date) {
    const row = await findTransactionByProviderPaymentId(tx, effect.providerPaymentId, 'update');
    if (!row || row.status === 'succeeded') return;
    if (row.providerUpdatedAt) {
      const stored = row.providerUpdatedAt.getTime();
      const incoming = eventAt.getTime();
      if (incoming < stored || (incoming === stored && STATUS_RANK[effect.status] <= STATUS_RANK[row.status])) return;
    }
    await updateTransaction(tx, row.id, {
      status: effect.status,
      errorMessage: effect.errorMessage,
      providerUpdatedAt: eventAt,
    });
    if (effect.status !== 'succeeded' || row.kind !== 'payment_intent' || !row.planId) return;

    // A client-confirmed payment for a plan has gone through: start that plan, unless the user's
    // subscription already reflects a later payment.
    const plan = await findPlan(tx, row.planId, 'share');
    if (!plan) return;
    const periodStart = effect.paymentCreatedAt ?? row.createdAt;
    const live = await findLiveSubscription(tx, row.userId, 'update');
    if (live && live.currentPeriodStart.getTime() >= periodStart.getTime()) return;
    // Nor does a payment older than the end of the user's last subscription bring it back (an event
    // that ended it may have arrived first).
    const endedAt = live ? undefined : await findLatestEndedAt(tx, row.userId);
    if (endedAt && endedAt.getTime() >= periodStart.getTime()) return;
    const subscription = await startPaidPeriod(tx, audit, {
      userId: row.userId,
      plan,
      periodStart,
      now: clock.now(),
      actor: null,
    });
    await updateTransaction(tx, row.id, { subscriptionId: subscription.id });
  }

  async function applyCardUpdate(
    tx: DbOrTx,
    effect: Extract<EventEffect, { kind: 'payment_method_updated' }>,
    eventAt: Date,
  ) {
    const row = await findPaymentMethodByProviderId(tx, effect.providerPaymentMethodId, 'update');
    if (!row) return;
    if (row.providerUpdatedAt && row.providerUpdatedAt.getTime() >= eventAt.getTime()) return;
    await updatePaymentMethodCard(tx, row.id, {
      cardType: effect.card.brand,
      lastFour: effect.card.lastFour,
      expiryMonth: effect.card.expMonth,
      expiryYear: effect.card.expYear,
      providerUpdatedAt: eventAt,
    });
  }

  async function applyDetach(tx: DbOrTx, providerPaymentMethodId: string) {
    const row = await findPaymentMethodByProviderId(tx, providerPaymentMethodId, 'update');
    if (!row) return;
    await deletePaymentMethod(tx, row.id);
    if (row.isDefault) await promoteNewest(tx, row.userId, row.provider);
  }

  async function applyCustomerDeleted(tx: DbOrTx, providerCustomerId: string, eventAt: Date) {
    const customer = await deleteCustomerByProviderId(tx, providerCustomerId);
    if (!customer) return;
    const live = await findLiveSubscription(tx, customer.userId, 'update');
    // A subscription started after the event was paid for by a customer that still existed then.
    if (!live || live.currentPeriodStart.getTime() > eventAt.getTime()) return;
    const now = clock.now();
    const ended = await updateSubscription(tx, live.id, {
      status: 'canceled',
      canceledAt: eventAt,
      nextAttemptAt: null,
      claimId: null,
      updatedAt: now,
    });
    await syncPlanGrants(tx, audit, { subscription: ended, cause: 'provider_event', actor: null });
  }

  async function handleEvent(event: ProviderEventPayload): Promise<'applied' | 'duplicate'> {
    const effect = interpretEvent(event);
    const eventAt = new Date(event.created * 1000);
    const outcome = await db.transaction(async (tx) => {
      const fresh = await recordEvent(tx, {
        id: event.id,
        provider: provider.name,
        type: event.type.slice(0, 255),
        providerCreatedAt: eventAt,
      });
      if (!fresh) return 'duplicate' as const;
      if (effect.kind === 'payment') await applyPayment(tx, effect, eventAt);
      else if (effect.kind === 'payment_method_updated') await applyCardUpdate(tx, effect, eventAt);
      else if (effect.kind === 'payment_method_detached') await applyDetach(tx, effect.providerPaymentMethodId);
      else if (effect.kind === 'customer_deleted') await applyCustomerDeleted(tx, effect.providerCustomerId, eventAt);
      return 'applied' as const;
    });
    log.info({ eventId: event.id, type: event.type, outcome }, 'billing event');
    return outcome;
  }

  return {
    handleEvent,
    /** `POST /subscriptions/webhook`: nothing is applied unless the signature over the raw body holds. */
    async receive(rawBody: Buffer, signature: string | undefined) {
      return handleEvent(await provider.verifyWebhook(rawBody, signature));
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
