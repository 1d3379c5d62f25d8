import {
  billingMessages,
  HttpErrorSchema,
  SandboxAdvanceResultSchema,
  SandboxAdvanceSchema,
  SandboxCardSchema,
  SandboxConfirmResultSchema,
  SandboxConfirmSchema,
  SandboxPaymentIntentParamsSchema,
  SandboxPaymentMethodSchema,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../../lib/errors.js';
import { currentActor, currentAuth } from '../../../plugins/auth.js';
import type { CustomerAccounts } from '../payment-methods/customers.service.js';
import type { SandboxClock } from './sandbox-clock.js';
import type { SandboxProvider } from './sandbox.provider.js';
import { denied, missing } from '../../../lib/route-responses.js';

const tags = ['subscriptions'];

/**
 * What the provider's browser SDK does, for the offline sandbox: turn a card into a `pm_…` id, and
 * confirm a payment intent. With Stripe live these answer 404.
 */
export const sandboxRoutes: FastifyPluginAsyncZod<{
  sandbox: SandboxProvider | undefined;
  customers: CustomerAccounts;
  sandboxClock: SandboxClock;
}> = async (app, { sandbox, customers, sandboxClock }) => {
  function live(): SandboxProvider {
    if (!sandbox) throw notFound(billingMessages.sandboxOnly);
    return sandbox;
  }

  app.post(
    '/subscriptions/sandbox/payment-methods',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'subscriptions_sandbox_create_card',
        tags,
        summary: 'Sandbox only: create a card payment method from a test card number',
        body: SandboxCardSchema,
        response: {
          201: SandboxPaymentMethodSchema,
          402: HttpErrorSchema,
          404: HttpErrorSchema,
          422: ValidationErrorSchema,
          ...denied,
        },
      },
    },
    async (request, reply) => reply.code(201).send(await live().tokenizeCard(request.body)),
  );

  app.post(
    '/subscriptions/sandbox/payment-intents/:payment_intent_id/confirm',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'subscriptions_sandbox_confirm_payment_intent',
        tags,
        summary: 'Sandbox only: confirm a payment intent with a card, as the browser SDK would',
        params: SandboxPaymentIntentParamsSchema,
        body: SandboxConfirmSchema,
        response: { 200: SandboxConfirmResultSchema, ...missing, ...denied },
      },
    },
    async (request) => {
      const provider = live();
      const customerId = await customers.ensure(currentAuth(request).user);
      const intent = await provider.confirmPaymentIntent(
        customerId,
        request.params.payment_intent_id,
        request.body.payment_method_id,
      );
      return { id: intent.id, status: intent.status, error_message: intent.errorMessage };
    },
  );

  app.post(
    '/subscriptions/sandbox/advance',
    {
      config: { access: 'superuser' },
      schema: {
        operationId: 'subscriptions_sandbox_advance_clock',
        tags,
        summary:
          "Sandbox only, never in production: move one customer's billing time forward and run what falls due (renewals, retries, period ends)",
        body: SandboxAdvanceSchema,
        response: { 200: SandboxAdvanceResultSchema, ...missing, ...denied },
      },
    },
    async (request) => sandboxClock.advance(currentActor(request), request.body),
  );
};
