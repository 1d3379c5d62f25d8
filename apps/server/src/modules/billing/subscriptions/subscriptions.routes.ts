import {
  BillingConfigSchema,
  CurrentSubscriptionSchema,
  HttpErrorSchema,
  PaginationQuerySchema,
  PaymentIntentCreateSchema,
  PaymentIntentSchema,
  PlanIdParamsSchema,
  SubscribeSchema,
  SubscriptionSchema,
  TransactionsSchema,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentActor, currentAuth } from '../../../plugins/auth.js';
import type { SubscriptionsService } from './subscriptions.service.js';
import { denied } from '../../../lib/route-responses.js';

const tags = ['subscriptions'];

export const subscriptionsRoutes: FastifyPluginAsyncZod<{ subscriptions: SubscriptionsService }> = async (
  app,
  { subscriptions },
) => {
  app.get(
    '/subscriptions/config',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'subscriptions_read_config',
        tags,
        summary: 'Which payment provider is live, and its publishable key',
        response: { 200: BillingConfigSchema, ...denied },
      },
    },
    async () => subscriptions.config(),
  );

  app.post(
    '/subscriptions/subscribe/:plan_id',
    {
      config: { access: 'verified' },
      schema: {
        operationId: 'subscriptions_subscribe',
        tags,
        summary: 'Pay for a plan and subscribe to it (or switch to it); 402 with the reason on a decline',
        params: PlanIdParamsSchema,
        body: SubscribeSchema,
        response: {
          200: SubscriptionSchema,
          400: HttpErrorSchema,
          402: HttpErrorSchema,
          404: HttpErrorSchema,
          409: HttpErrorSchema,
          422: ValidationErrorSchema,
          502: HttpErrorSchema,
          ...denied,
        },
      },
    },
    async (request) => subscriptions.subscribe(currentActor(request), request.params.plan_id, request.body),
  );

  app.get(
    '/subscriptions/subscription',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'subscriptions_read_subscription',
        tags,
        summary: 'The current subscription, or null',
        response: { 200: CurrentSubscriptionSchema, ...denied },
      },
    },
    async (request) => subscriptions.current(currentAuth(request)),
  );

  app.post(
    '/subscriptions/subscription/cancel',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'subscriptions_cancel',
        tags,
        summary: 'Cancel at the end of the paid period (it stays active until then)',
        response: { 200: SubscriptionSchema, 404: HttpErrorSchema, ...denied },
      },
    },
    async (request) => subscriptions.cancel(currentActor(request)),
  );

  app.get(
    '/subscriptions/transactions',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'subscriptions_list_transactions',
        tags,
        summary: 'Billing history, newest first',
        querystring: PaginationQuerySchema,
        response: { 200: TransactionsSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request) => subscriptions.transactions(currentAuth(request), request.query),
  );

  app.post(
    '/subscriptions/payment-intent',
    {
      config: { access: 'verified' },
      schema: {
        operationId: 'subscriptions_create_payment_intent',
        tags,
        summary: "A payment intent for a plan's amount, confirmed by the client; its outcome arrives as an event",
        body: PaymentIntentCreateSchema,
        response: {
          201: PaymentIntentSchema,
          400: HttpErrorSchema,
          404: HttpErrorSchema,
          422: ValidationErrorSchema,
          502: HttpErrorSchema,
          ...denied,
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await subscriptions.createPaymentIntent(currentAuth(request), request.body)),
  );
};
