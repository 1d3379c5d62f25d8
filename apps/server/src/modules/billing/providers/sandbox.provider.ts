import { randomBytes } from 'node:crypto';
import { billingMessages, passesLuhn, type SandboxCard, type SandboxPaymentMethod } from '@dataplatform/contract';
import type { Database } from '../../../db/client.js';
import type { Clock } from '../../../lib/clock.js';
import { fieldError, notFound } from '../../../lib/errors.js';
import {
  PaymentDeclinedError,
  ProviderRequestError,
  toUnixSeconds,
  type CardDetails,
  type ChargeResult,
  type PaymentProvider,
  type ProviderEventPayload,
} from './payment-provider.js';
import {
  DECLINE_MESSAGES,
  DECLINE_ON_ATTACH,
  expectedCvcLength,
  NOT_A_TEST_CARD,
  TEST_CARDS,
  type SandboxOutcome,
} from './sandbox-cards.js';
import {
  claimSandboxPaymentIntent,
  detachSandboxCustomerPaymentMethods,
  findSandboxPaymentIntent,
  findSandboxPaymentMethod,
  insertSandboxPaymentIntent,
  insertSandboxPaymentMethod,
  setSandboxPaymentMethodCustomer,
  updateSandboxPaymentIntent,
  type SandboxPaymentIntentRow,
  type SandboxPaymentMethodRow,
} from './sandbox.repository.js';
import { verifyStripeSignature } from './webhook-signature.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A Stripe-looking id: prefix plus 24 random alphanumerics. */
export function sandboxId(prefix: string): string {
  const bytes = randomBytes(24);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${id}`;
}

const cardOf = (row: SandboxPaymentMethodRow): CardDetails => ({
  brand: row.brand,
  lastFour: row.lastFour,
  expMonth: row.expMonth,
  expYear: row.expYear,
});

function chargeOutcome(outcome: string): { ok: true } | { ok: false; reason: string } {
  if (outcome === 'succeed') return { ok: true };
  const decline = DECLINE_MESSAGES[outcome as Exclude<SandboxOutcome, 'succeed'>];
  return { ok: false, reason: decline?.message ?? DECLINE_MESSAGES.card_declined.message };
}

/**
 * The offline processor: behaves like Stripe's test mode with Stripe's test cards, keeps its books in
 * its own tables, and reports each payment's outcome as a Stripe-shaped event through `emit` (the
 * handler the Stripe webhook uses).
 */
export function createSandboxProvider(deps: {
  db: Database;
  clock: Clock;
  webhookSecret: string;
  emit: (event: ProviderEventPayload) => Promise<void>;
}) {
  const { db, clock, webhookSecret, emit } = deps;

  function paymentIntentEvent(intent: SandboxPaymentIntentRow): ProviderEventPayload {
    const type =
      intent.status === 'succeeded'
        ? 'payment_intent.succeeded'
        : intent.status === 'requires_payment_method' && intent.errorMessage
          ? 'payment_intent.payment_failed'
          : `payment_intent.${intent.status}`;
    return {
      id: sandboxId('evt'),
      type,
      created: toUnixSeconds(clock.now()),
      data: {
        object: {
          id: intent.id,
          object: 'payment_intent',
          amount: Number(intent.amountMinor),
          currency: intent.currency,
          customer: intent.customerId,
          status: intent.status,
          created: toUnixSeconds(intent.createdAt),
          metadata: intent.metadata,
          last_payment_error: intent.errorMessage ? { message: intent.errorMessage } : null,
        },
      },
    };
  }

  /** Decides a payment with the card's test outcome and books it; returns the intent as it ends. */
  async function settle(intent: SandboxPaymentIntentRow, card: SandboxPaymentMethodRow | undefined) {
    const outcome = card ? chargeOutcome(card.outcome) : { ok: false as const, reason: 'No such payment method.' };
    const status = outcome.ok ? 'succeeded' : 'requires_payment_method';
    const errorMessage = outcome.ok ? null : outcome.reason;
    await updateSandboxPaymentIntent(db, intent.id, { status, errorMessage, paymentMethodId: card?.id ?? null });
    const settled = { ...intent, status, errorMessage, paymentMethodId: card?.id ?? null };
    await emit(paymentIntentEvent(settled));
    return settled;
  }

  const provider: PaymentProvider = {
    name: 'sandbox',
    publishableKey: null,

    async createCustomer() {
      return sandboxId('cus');
    },

    async deleteCustomer(customerId) {
      await detachSandboxCustomerPaymentMethods(db, customerId);
    },

    async attachPaymentMethod(customerId, paymentMethodId) {
      const card = await findSandboxPaymentMethod(db, paymentMethodId);
      if (!card) throw new ProviderRequestError(billingMessages.paymentMethodUnknown, 'resource_missing');
      if (card.customerId !== null && card.customerId !== customerId) {
        throw new ProviderRequestError(
          'The payment method you provided has already been attached to a customer.',
          'payment_method_unexpected_state',
        );
      }
      if (DECLINE_ON_ATTACH.has(card.outcome as SandboxOutcome)) {
        const decline = DECLINE_MESSAGES[card.outcome as Exclude<SandboxOutcome, 'succeed'>];
        throw new PaymentDeclinedError(decline.message, decline.code);
      }
      await setSandboxPaymentMethodCustomer(db, card.id, customerId);
      return cardOf(card);
    },

    async detachPaymentMethod(paymentMethodId) {
      await setSandboxPaymentMethodCustomer(db, paymentMethodId, null);
    },

    async setDefaultPaymentMethod(customerId, paymentMethodId) {
      const card = await findSandboxPaymentMethod(db, paymentMethodId);
      if (!card || card.customerId !== customerId) {
        throw new ProviderRequestError(billingMessages.paymentMethodUnknown, 'resource_missing');
      }
    },

    async charge(request): Promise<ChargeResult> {
      const { row: intent, created } = await insertSandboxPaymentIntent(db, {
        id: sandboxId('pi'),
        customerId: request.customerId,
        paymentMethodId: request.paymentMethodId,
        amountMinor: request.amount,
        currency: request.currency,
        status: 'processing',
        metadata: request.metadata,
        idempotencyKey: request.idempotencyKey,
        clientSecret: `${sandboxId('pi')}_secret`,
        createdAt: clock.now(),
      });
      let settled = intent;
      if (created) {
        const card = await findSandboxPaymentMethod(db, request.paymentMethodId);
        const attached = card && card.customerId === request.customerId ? card : undefined;
        settled = await settle(intent, attached);
      }
      return settled.status === 'succeeded'
        ? { status: 'succeeded', providerPaymentId: settled.id }
        : { status: 'failed', providerPaymentId: settled.id, reason: settled.errorMessage ?? 'Payment failed.' };
    },

    async createPaymentIntent(input) {
      const id = sandboxId('pi');
      const { row } = await insertSandboxPaymentIntent(db, {
        id,
        customerId: input.customerId,
        amountMinor: input.amount,
        currency: input.currency,
        status: 'requires_payment_method',
        metadata: input.metadata,
        idempotencyKey: input.idempotencyKey,
        clientSecret: `${id}_secret_${sandboxId('s').slice(2)}`,
        createdAt: clock.now(),
      });
      return { id: row.id, clientSecret: row.clientSecret, status: row.status };
    },

    async createPrice(input) {
      return { productId: input.productId ?? sandboxId('prod'), priceId: sandboxId('price') };
    },

    verifyWebhook(rawBody, signature) {
      return verifyStripeSignature(rawBody, signature, webhookSecret, clock);
    },
  };

  return {
    ...provider,

    /**
     * What the browser SDK does with the card field: checks the card and answers a `pm_…` id. Only
     * brand, last four, expiry and the test outcome are kept.
     */
    async tokenizeCard(card: SandboxCard): Promise<SandboxPaymentMethod> {
      if (!passesLuhn(card.number)) throw fieldError(['body', 'number'], billingMessages.cardNumberInvalid);
      const now = clock.now();
      const expired =
        card.exp_year < now.getUTCFullYear() ||
        (card.exp_year === now.getUTCFullYear() && card.exp_month < now.getUTCMonth() + 1);
      if (expired) throw fieldError(['body', 'exp_year'], billingMessages.cardExpiryInvalid);
      const behaviour = TEST_CARDS[card.number];
      if (!behaviour) throw new PaymentDeclinedError(NOT_A_TEST_CARD, 'card_declined');
      if (card.cvc.length !== expectedCvcLength(behaviour.brand)) {
        throw fieldError(['body', 'cvc'], billingMessages.cardCvcInvalid);
      }
      const row = await insertSandboxPaymentMethod(db, {
        id: sandboxId('pm'),
        brand: behaviour.brand,
        lastFour: card.number.slice(-4),
        expMonth: card.exp_month,
        expYear: card.exp_year,
        outcome: behaviour.outcome,
        createdAt: now,
      });
      return {
        id: row.id,
        card_type: row.brand,
        last_four: row.lastFour,
        expiry_month: row.expMonth,
        expiry_year: row.expYear,
      };
    },

    /** The client-side confirmation of an intent made by `createPaymentIntent`, for a customer's own intent. */
    async confirmPaymentIntent(customerId: string, intentId: string, paymentMethodId: string) {
      const intent = await findSandboxPaymentIntent(db, intentId);
      if (!intent || intent.customerId !== customerId) throw notFound(billingMessages.paymentIntentNotFound);
      // Only one confirmation settles an intent, however many arrive at once; a declined one may be retried.
      const claimed = await claimSandboxPaymentIntent(db, intentId);
      if (!claimed) return intent;
      const card = await findSandboxPaymentMethod(db, paymentMethodId);
      const usable = card && (card.customerId === null || card.customerId === customerId) ? card : undefined;
      return settle(claimed, usable);
    },
  };
}

export type SandboxProvider = ReturnType<typeof createSandboxProvider>;
