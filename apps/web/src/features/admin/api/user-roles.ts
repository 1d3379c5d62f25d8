import type { BillingConfig, PlanRoleGrants, RolesPublic, SandboxAdvanceResult } from '@dataplatform/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation.js';
import { idSetResource } from './id-set.js';

/** `GET` and `PUT /authorization/user/{user_id}/roles`: the roles a user holds by hand, replaced whole. */
const userRoles = idSetResource<RolesPublic>({
  key: 'user-roles',
  path: (userId) => `/authorization/user/${userId}/roles`,
  savedToast: 'Roles assigned successfully',
});

const userRolesKeys = userRoles.keys;
export const userRolesQueryOptions = userRoles.queryOptions;
export const useAssignUserRoles = userRoles.useReplace;

/** `GET /authorization/user/{user_id}/plan-roles`: roles held because a subscription is paid for. */
export function planRolesQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...userRolesKeys.all, 'plan', userId] as const,
    queryFn: ({ signal }) =>
      apiRequest<PlanRoleGrants>({ path: `/authorization/user/${userId}/plan-roles`, signal, admin: true }),
  });
}

/** `GET /subscriptions/config`: whether the sandbox's test clock exists here (sandbox, not production). */
export function billingClockQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'billing-config'] as const,
    queryFn: ({ signal }) => apiRequest<BillingConfig>({ path: '/subscriptions/config', signal }),
    staleTime: Infinity,
  });
}

/** `POST /subscriptions/sandbox/advance`: one customer's billing time moves on; what falls due runs. */
export function useAdvanceSandboxClock() {
  return useInvalidatingMutation({
    mutationFn: ({ userId, seconds }: { userId: string; seconds: number }) =>
      apiRequest<SandboxAdvanceResult>({
        method: 'POST',
        path: '/subscriptions/sandbox/advance',
        json: { user_id: userId, seconds },
        admin: true,
      }),
    meta: { errorText: 'Failed to move the billing clock' },
    successToast: (result) => `Billing time is now ${new Date(result.billing_time).toLocaleString()}`,
    invalidates: userRolesKeys.all,
  });
}
