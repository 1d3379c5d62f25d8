import { billingMessages, type PaymentProviderName } from '@dataplatform/contract';
import { AppError } from '../../../lib/errors.js';
import type { Minor } from '../../../lib/money.js';

/** What a provider tells us about a card: never the number, never the CVC. */
export interface CardDetails {
  brand: string;
  lastFour: string;
  expMonth: number;
  expYear: number;
}

export interface ChargeRequest {
  customerId: string;
  paymentMethodId: string;
  amount: Minor;
  currency: string;
  description: string;
  metadata: Record<string, string>;
  /** The same key never charges twice, whichever instance or retry sends it. */
  idempotencyKey: string;
  /** True for renewals: the customer is not there to authenticate. */
  offSession: boolean;
}

export type ChargeResult =
  | { status: 'succeeded'; providerPaymentId: string }
  | { status: 'failed'; providerPaymentId: string | null; reason: string };

export interface CreatedPaymentIntent {
  id: string;
  clientSecret: string;
  status: string;
}

/**
 * A provider event in Stripe's shape (`{ id, type, created, data: { object } }`): the Stripe webhook
 * delivers these, and the sandbox emits the same shape, so one handler serves both.
 */
export interface ProviderEventPayload {
  id: string;
  type: string;
  /** Seconds since the epoch, as Stripe sends it. */
  created: number;
  data: { object: Record<string, unknown> };
}

/**
 * Everything billing needs from a card processor. `stripe` and `sandbox` implement it; services
 * never know which one is live.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  readonly publishableKey: string | null;
  createCustomer(input: { userId: string; email: string; name: string | null }): Promise<string>;
  deleteCustomer(customerId: string): Promise<void>;
  /** Attaches a card the browser SDK created; a card that fails the check is a PaymentDeclinedError. */
  attachPaymentMethod(customerId: string, paymentMethodId: string): Promise<CardDetails>;
  detachPaymentMethod(paymentMethodId: string): Promise<void>;
  setDefaultPaymentMethod(customerId: string, paymentMethodId: string): Promise<void>;
  /** Charges now. A decline is a result, not an exception; an unreachable provider throws. */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** A payment the client confirms itself (3-D Secure and friends); its outcome arrives as an event. */
  createPaymentIntent(input: {
    customerId: string;
    amount: Minor;
    currency: string;
    description: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<CreatedPaymentIntent>;
  /** The provider's recurring price for a plan's current amount (a new one each time: prices are immutable). */
  createPrice(input: {
    planId: string;
    name: string;
    amount: Minor;
    currency: string;
    interval: 'month' | 'year';
    productId: string | null;
  }): Promise<{ productId: string; priceId: string }>;
  /** Checks the signature over the exact bytes received; throws a 400 AppError when it does not match. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): Promise<ProviderEventPayload>;
}

/** The card was refused; `reason` is the provider's own words, shown to the person. */
export class PaymentDeclinedError extends AppError {
  constructor(
    readonly reason: string,
    readonly code: string,
  ) {
    super('card_declined', reason);
  }
}

/** The provider refused the request itself (unknown id, card of another customer...). */
export class ProviderRequestError extends AppError {
  constructor(
    detail: string,
    readonly code: string | undefined,
  ) {
    super('bad_request', detail);
  }
}

/** Network failure, provider outage, bad API key: nothing the caller can fix, so a 502. */
export class ProviderUnavailableError extends AppError {
  constructor(readonly providerError: unknown) {
    super('payment_provider_unavailable', billingMessages.providerUnavailable);
  }
}

export const toUnixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
