import {
  HttpErrorSchema,
  PERMISSIONS,
  PlanCreateSchema,
  PlanIdParamsSchema,
  PlanSchema,
  PlansSchema,
  PlanUpdateSchema,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentActor, currentAuth } from '../../../plugins/auth.js';
import type { PlansService } from './plans.service.js';
import { BODY_LIMITS } from '../../../lib/body-limits.js';
import { denied, missing } from '../../../lib/route-responses.js';

const tags = ['subscriptions'];
const managePlans = { access: { permission: PERMISSIONS.plansWrite } } as const;

export const plansRoutes: FastifyPluginAsyncZod<{ plans: PlansService }> = async (app, { plans }) => {
  app.get(
    '/subscriptions/plans',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'subscriptions_list_plans',
        tags,
        summary: 'Subscription plans, cheapest first (inactive ones only for plan managers)',
        response: { 200: PlansSchema, ...denied },
      },
    },
    async (request) => plans.list(currentAuth(request)),
  );

  app.post(
    '/subscriptions/plans',
    {
      config: managePlans,
      bodyLimit: BODY_LIMITS.plan,
      schema: {
        operationId: 'subscriptions_create_plan',
        tags,
        summary: 'Create a plan',
        body: PlanCreateSchema,
        response: { 201: PlanSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request, reply) => reply.code(201).send(await plans.create(request.body)),
  );

  app.patch(
    '/subscriptions/plans/:plan_id',
    {
      config: managePlans,
      bodyLimit: BODY_LIMITS.plan,
      schema: {
        operationId: 'subscriptions_update_plan',
        tags,
        summary: 'Update a plan (a new price applies from the next renewal)',
        params: PlanIdParamsSchema,
        body: PlanUpdateSchema,
        response: { 200: PlanSchema, ...missing, ...denied },
      },
    },
    async (request) => plans.update(currentActor(request), request.params.plan_id, request.body),
  );

  app.delete(
    '/subscriptions/plans/:plan_id',
    {
      config: managePlans,
      schema: {
        operationId: 'subscriptions_delete_plan',
        tags,
        summary: 'Delete a plan nobody is subscribed to (409 otherwise: deactivate it instead)',
        params: PlanIdParamsSchema,
        response: {
          204: z.null(),
          404: HttpErrorSchema,
          409: HttpErrorSchema,
          422: ValidationErrorSchema,
          ...denied,
        },
      },
    },
    async (request, reply) => {
      await plans.remove(request.params.plan_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/subscriptions/plans/:plan_id/update-stripe-price',
    {
      config: managePlans,
      schema: {
        operationId: 'subscriptions_update_plan_price',
        tags,
        summary: "Create the payment provider's recurring price for the plan's current amount",
        params: PlanIdParamsSchema,
        response: {
          200: PlanSchema,
          400: HttpErrorSchema,
          404: HttpErrorSchema,
          422: ValidationErrorSchema,
          502: HttpErrorSchema,
          ...denied,
        },
      },
    },
    async (request) => plans.updateProviderPrice(request.params.plan_id),
  );
};
