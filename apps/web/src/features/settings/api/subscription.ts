import type { Subscribe, Subscription } from '@dataplatform/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { currentUserKeys } from '../../../lib/current-user.js';
import { transactionKeys } from './transactions.js';

export const subscriptionKeys = {
  all: ['subscription'] as const,
  current: () => [...subscriptionKeys.all, 'current'] as const,
};

/** `GET /subscriptions/subscription`: the live subscription, or null. */
export function fetchSubscription(): Promise<Subscription | null> {
  return apiRequest<Subscription | null>({ path: '/subscriptions/subscription' });
}

export function subscriptionQueryOptions() {
  return queryOptions({
    queryKey: subscriptionKeys.current(),
    queryFn: fetchSubscription,
    meta: { errorToast: false },
  });
}

export function useSubscribe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ planId, paymentMethodId }: { planId: string; paymentMethodId: string }) =>
      apiRequest<Subscription>({
        method: 'POST',
        path: `/subscriptions/subscribe/${planId}`,
        json: { payment_method_id: paymentMethodId, plan_id: planId } satisfies Subscribe,
      }),
    // The dialog shows "Failed to create subscription: <reason>" and stays open to pick another card.
    meta: { errorToast: false },
    // A charge was tried either way: the history changes too, and the roles the plan grants
    // (the Download tab follows them: PLAN-ROLES-2).
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.all }),
        queryClient.invalidateQueries({ queryKey: transactionKeys.all }),
        queryClient.invalidateQueries({ queryKey: currentUserKeys.all }),
      ]),
  });
}

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<Subscription>({ method: 'POST', path: '/subscriptions/subscription/cancel' }),
    meta: { errorText: 'Failed to cancel subscription' },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.all }),
        queryClient.invalidateQueries({ queryKey: currentUserKeys.all }),
      ]),
  });
}
