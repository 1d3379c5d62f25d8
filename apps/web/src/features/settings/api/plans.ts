import {
  PAGE_LIMIT_MAX,
  type Plan,
  type PlanCreate,
  type Plans,
  type PlanUpdate,
  type RolesPublic,
} from '@dataplatform/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation.js';

export const planKeys = {
  all: ['plans'] as const,
  list: () => [...planKeys.all, 'list'] as const,
};

/** `GET /subscriptions/plans`: active plans; a superuser also gets the inactive ones. */
export function fetchPlans(): Promise<Plans> {
  return apiRequest<Plans>({ path: '/subscriptions/plans' });
}

export function plansQueryOptions() {
  // The tab shows "Error loading subscription plans. Please try again later." itself.
  return queryOptions({ queryKey: planKeys.list(), queryFn: fetchPlans, meta: { errorToast: false } });
}

/** `GET /authorization/roles`: the roles a plan may grant, for the plan dialog (superusers only open it). */
export function planRolesQueryOptions() {
  return queryOptions({
    queryKey: ['plans', 'roles'] as const,
    queryFn: ({ signal }) =>
      apiRequest<RolesPublic>({ path: '/authorization/roles', query: { limit: PAGE_LIMIT_MAX }, signal, admin: true }),
  });
}

export function useCreatePlan() {
  return useInvalidatingMutation({
    mutationFn: (body: PlanCreate) => apiRequest<Plan>({ method: 'POST', path: '/subscriptions/plans', json: body }),
    meta: { errorText: 'Failed to create the plan' },
    invalidates: planKeys.all,
  });
}

export function useUpdatePlan() {
  return useInvalidatingMutation({
    mutationFn: ({ id, body }: { id: string; body: PlanUpdate }) =>
      apiRequest<Plan>({ method: 'PATCH', path: `/subscriptions/plans/${id}`, json: body }),
    meta: { errorText: 'Failed to update the plan' },
    invalidates: planKeys.all,
  });
}

export function useDeletePlan() {
  return useInvalidatingMutation({
    mutationFn: (id: string) => apiRequest<void>({ method: 'DELETE', path: `/subscriptions/plans/${id}` }),
    // The dialog shows a refusal (a plan with subscribers) with its way out; other failures toast.
    meta: { errorToast: false },
    invalidates: planKeys.all,
  });
}

/** `POST /subscriptions/plans/{plan_id}/update-stripe-price`: Stripe gets the plan's current price. */
export function usePushStripePrice() {
  return useInvalidatingMutation({
    mutationFn: (id: string) =>
      apiRequest<Plan>({ method: 'POST', path: `/subscriptions/plans/${id}/update-stripe-price` }),
    meta: { errorText: 'Failed to update the Stripe price' },
    invalidates: planKeys.all,
  });
}
