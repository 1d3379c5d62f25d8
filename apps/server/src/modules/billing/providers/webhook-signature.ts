import { billingMessages } from '@dataplatform/contract';
import type Stripe from 'stripe';
import type { Clock } from '../../../lib/clock.js';
import { badRequest } from '../../../lib/errors.js';
import type { ProviderEventPayload } from './payment-provider.js';

/** Stripe's default: a signature older than five minutes is a replay. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

function isEventPayload(value: unknown): value is ProviderEventPayload {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  const data = event.data as Record<string, unknown> | undefined;
  return (
    typeof event.id === 'string' &&
    event.id.length > 0 &&
    event.id.length <= 255 &&
    typeof event.type === 'string' &&
    typeof event.created === 'number' &&
    Number.isFinite(event.created) &&
    typeof data === 'object' &&
    data !== null &&
    typeof data.object === 'object' &&
    data.object !== null
  );
}

/**
 * Stripe's SDK, loaded with the first webhook: an instance on the sandbox that is never sent one
 * (a local run) does not carry it (about 5 MiB and 85 ms at import).
 */
let stripeSdk: Promise<typeof Stripe> | undefined;
const loadStripeSdk = () => (stripeSdk ??= import('stripe').then((module) => module.default));

/**
 * Verifies a `Stripe-Signature` header over the raw body (HMAC-SHA256, Stripe's scheme, used by the
 * sandbox too) and parses the event. Any mismatch, a stale timestamp or a malformed body is a 400.
 */
export async function verifyStripeSignature(
  rawBody: Buffer,
  signature: string | undefined,
  secret: string,
  clock: Clock,
): Promise<ProviderEventPayload> {
  if (!signature) throw badRequest(billingMessages.webhookSignatureMissing);
  const sdk = await loadStripeSdk();
  let event: unknown;
  try {
    event = sdk.webhooks.constructEvent(
      rawBody,
      signature,
      secret,
      SIGNATURE_TOLERANCE_SECONDS,
      undefined,
      clock.now().getTime(),
    );
  } catch {
    throw badRequest(billingMessages.webhookSignatureInvalid);
  }
  if (!isEventPayload(event)) throw badRequest(billingMessages.webhookPayloadInvalid);
  return event;
}
