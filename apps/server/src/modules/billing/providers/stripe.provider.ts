import Stripe from 'stripe';
import type { BillingConfig } from '../../../config.js';
import type { Clock } from '../../../lib/clock.js';
import { minorToNumber } from '../../../lib/money.js';
import {
  PaymentDeclinedError,
  ProviderRequestError,
  ProviderUnavailableError,
  type CardDetails,
  type ChargeResult,
  type PaymentProvider,
} from './payment-provider.js';
import { verifyStripeSignature } from './webhook-signature.js';

/** Statuses after which nothing more will happen to a payment intent without the customer. */
const NEEDS_CUSTOMER = new Set(['requires_action', 'requires_confirmation', 'requires_payment_method']);
const AUTHENTICATION_REQUIRED = 'This card requires authentication, which is not possible for this payment.';

/** Maps the SDK's errors onto ours: declines 402, refused requests 400, everything else 502. */
function translate(error: unknown): never {
  if (error instanceof Stripe.errors.StripeCardError) {
    throw new PaymentDeclinedError(error.message, error.decline_code ?? error.code ?? 'card_declined');
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    throw new ProviderRequestError(error.message, error.code);
  }
  throw new ProviderUnavailableError(error);
}

const isMissing = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError &&
  (error.code === 'resource_missing' || /not attached/i.test(error.message));

function cardOf(paymentMethod: Stripe.PaymentMethod): CardDetails {
  const card = paymentMethod.card;
  if (!card) throw new ProviderRequestError('Only card payment methods are supported', 'payment_method_type');
  return { brand: card.brand, lastFour: card.last4, expMonth: card.exp_month, expYear: card.exp_year };
}

/** Stripe behind `PaymentProvider`: our server drives the billing cycle with payment intents. */
export function createStripeProvider(
  config: NonNullable<BillingConfig['stripe']>,
  webhookSecret: string,
  clock: Clock,
) {
  const api = config.apiBase ? new URL(config.apiBase) : undefined;
  const stripe = new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'http:' ? 80 : 443),
          protocol: api.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });

  const provider: PaymentProvider = {
    name: 'stripe',
    publishableKey: config.publishableKey ?? null,

    async createCustomer({ userId, email, name }) {
      try {
        const customer = await stripe.customers.create(
          { email, ...(name ? { name } : {}), metadata: { user_id: userId } },
          { idempotencyKey: `customer-${userId}` },
        );
        return customer.id;
      } catch (error) {
        return translate(error);
      }
    },

    async deleteCustomer(customerId) {
      try {
        await stripe.customers.del(customerId);
      } catch (error) {
        if (!isMissing(error)) translate(error);
      }
    },

    async attachPaymentMethod(customerId, paymentMethodId) {
      try {
        return cardOf(await stripe.paymentMethods.attach(paymentMethodId, { customer: customerId }));
      } catch (error) {
        return translate(error);
      }
    },

    async detachPaymentMethod(paymentMethodId) {
      try {
        await stripe.paymentMethods.detach(paymentMethodId);
      } catch (error) {
        if (!isMissing(error)) translate(error);
      }
    },

    async setDefaultPaymentMethod(customerId, paymentMethodId) {
      try {
        await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: paymentMethodId } });
      } catch (error) {
        translate(error);
      }
    },

    async charge(request): Promise<ChargeResult> {
      let intent: Stripe.PaymentIntent;
      try {
        intent = await stripe.paymentIntents.create(
          {
            amount: minorToNumber(request.amount),
            currency: request.currency,
            customer: request.customerId,
            payment_method: request.paymentMethodId,
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
            confirm: true,
            off_session: request.offSession,
            description: request.description,
            metadata: request.metadata,
          },
          { idempotencyKey: request.idempotencyKey },
        );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          return { status: 'failed', providerPaymentId: error.payment_intent?.id ?? null, reason: error.message };
        }
        return translate(error);
      }
      if (intent.status === 'succeeded') return { status: 'succeeded', providerPaymentId: intent.id };
      if (NEEDS_CUSTOMER.has(intent.status)) {
        // Nobody will complete it: cancel so it cannot be confirmed later behind our back.
        await stripe.paymentIntents.cancel(intent.id).catch(() => undefined);
      }
      return {
        status: 'failed',
        providerPaymentId: intent.id,
        reason: intent.last_payment_error?.message ?? AUTHENTICATION_REQUIRED,
      };
    },

    async createPaymentIntent(input) {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: minorToNumber(input.amount),
            currency: input.currency,
            customer: input.customerId,
            automatic_payment_methods: { enabled: true },
            setup_future_usage: 'off_session',
            description: input.description,
            metadata: input.metadata,
          },
          { idempotencyKey: input.idempotencyKey },
        );
        if (!intent.client_secret) throw new ProviderUnavailableError('payment intent without client secret');
        return { id: intent.id, clientSecret: intent.client_secret, status: intent.status };
      } catch (error) {
        if (error instanceof ProviderUnavailableError) throw error;
        return translate(error);
      }
    },

    async createPrice(input) {
      try {
        const productId =
          input.productId ??
          (await stripe.products.create({ name: input.name, metadata: { plan_id: input.planId } })).id;
        const price = await stripe.prices.create({
          product: productId,
          currency: input.currency,
          unit_amount: minorToNumber(input.amount),
          recurring: { interval: input.interval },
          metadata: { plan_id: input.planId },
        });
        return { productId, priceId: price.id };
      } catch (error) {
        return translate(error);
      }
    },

    verifyWebhook(rawBody, signature) {
      return verifyStripeSignature(rawBody, signature, webhookSecret, clock);
    },
  };
  return provider;
}
