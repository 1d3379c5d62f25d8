import type {
  BillingConfig,
  PaymentMethod,
  PaymentMethodCreate,
  PaymentMethods,
  SandboxCard,
  SandboxPaymentMethod,
} from '@dataplatform/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation.js';

export const paymentMethodKeys = {
  all: ['payment-methods'] as const,
  list: () => [...paymentMethodKeys.all, 'list'] as const,
};

export const billingConfigKeys = {
  all: ['billing-config'] as const,
};

/** `GET /subscriptions/payment-methods`: the caller's saved cards. */
export function fetchPaymentMethods(): Promise<PaymentMethods> {
  return apiRequest<PaymentMethods>({ path: '/subscriptions/payment-methods' });
}

export function paymentMethodsQueryOptions() {
  return queryOptions({
    queryKey: paymentMethodKeys.list(),
    queryFn: fetchPaymentMethods,
    meta: { errorToast: false },
  });
}

/** `GET /subscriptions/config`: which provider takes cards, and its publishable key. */
export function billingConfigQueryOptions() {
  return queryOptions({
    queryKey: billingConfigKeys.all,
    queryFn: () => apiRequest<BillingConfig>({ path: '/subscriptions/config' }),
    staleTime: Infinity,
    meta: { errorToast: false },
  });
}

/**
 * `POST /subscriptions/sandbox/payment-methods`: what Stripe.js's createPaymentMethod does when the
 * offline sandbox is the provider. Only brand, last four and expiry are kept.
 */
export function createSandboxPaymentMethod(card: SandboxCard): Promise<SandboxPaymentMethod> {
  return apiRequest<SandboxPaymentMethod>({
    method: 'POST',
    path: '/subscriptions/sandbox/payment-methods',
    json: card,
  });
}

export function useAddPaymentMethod() {
  return useInvalidatingMutation({
    mutationFn: (body: PaymentMethodCreate) =>
      apiRequest<PaymentMethod>({ method: 'POST', path: '/subscriptions/payment-methods', json: body }),
    // The dialog shows "Failed to add payment method: <reason>" with "Try again".
    meta: { errorToast: false },
    invalidates: paymentMethodKeys.all,
  });
}

export function useDeletePaymentMethod() {
  return useInvalidatingMutation({
    mutationFn: (id: string) => apiRequest<void>({ method: 'DELETE', path: `/subscriptions/payment-methods/${id}` }),
    meta: { errorText: 'Failed to delete payment method' },
    invalidates: paymentMethodKeys.all,
  });
}

export function useSetDefaultPaymentMethod() {
  return useInvalidatingMutation({
    mutationFn: (id: string) =>
      apiRequest<PaymentMethod>({ method: 'POST', path: `/subscriptions/payment-methods/${id}/default` }),
    meta: { errorText: 'Failed to update default payment method' },
    invalidates: paymentMethodKeys.all,
  });
}
