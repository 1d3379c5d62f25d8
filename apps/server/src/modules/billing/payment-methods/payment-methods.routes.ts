import {
  HttpErrorSchema,
  PaymentMethodCreateSchema,
  PaymentMethodIdParamsSchema,
  PaymentMethodSchema,
  PaymentMethodsSchema,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentAuth } from '../../../plugins/auth.js';
import type { PaymentMethodsService } from './payment-methods.service.js';
import { denied, missing } from '../../../lib/route-responses.js';

const tags = ['subscriptions'];

export const paymentMethodsRoutes: FastifyPluginAsyncZod<{ paymentMethods: PaymentMethodsService }> = async (
  app,
  { paymentMethods },
) => {
  app.get(
    '/subscriptions/payment-methods',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'subscriptions_list_payment_methods',
        tags,
        summary: 'Saved cards, default first',
        response: { 200: PaymentMethodsSchema, ...denied },
      },
    },
    async (request) => paymentMethods.list(currentAuth(request)),
  );

  app.post(
    '/subscriptions/payment-methods',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'subscriptions_add_payment_method',
        tags,
        summary: "Save a card the provider's browser SDK created (402 when the card is refused)",
        body: PaymentMethodCreateSchema,
        response: {
          201: PaymentMethodSchema,
          400: HttpErrorSchema,
          402: HttpErrorSchema,
          409: HttpErrorSchema,
          422: ValidationErrorSchema,
          502: HttpErrorSchema,
          ...denied,
        },
      },
    },
    async (request, reply) => reply.code(201).send(await paymentMethods.add(currentAuth(request), request.body)),
  );

  app.delete(
    '/subscriptions/payment-methods/:payment_method_id',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'subscriptions_remove_payment_method',
        tags,
        summary: 'Remove a saved card (detached at the provider)',
        params: PaymentMethodIdParamsSchema,
        response: { 204: z.null(), 404: HttpErrorSchema, 422: ValidationErrorSchema, 502: HttpErrorSchema, ...denied },
      },
    },
    async (request, reply) => {
      await paymentMethods.remove(currentAuth(request), request.params.payment_method_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/subscriptions/payment-methods/:payment_method_id/default',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'subscriptions_set_default_payment_method',
        tags,
        summary: 'Make a saved card the default (the one renewals charge)',
        params: PaymentMethodIdParamsSchema,
        response: { 200: PaymentMethodSchema, ...missing, ...denied },
      },
    },
    async (request) => paymentMethods.setDefault(currentAuth(request), request.params.payment_method_id),
  );
};
