import type { BillingConfig, PlanRoleGrants, RolesPublic, SandboxAdvanceResult } from '@dataplatform/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation.js';

export const userRolesKeys = {
  all: ['admin', 'user-roles'] as const,
  detail: (userId: string) => [...userRolesKeys.all, 'detail', userId] as const,
};

/** `GET /authorization/user/{user_id}/roles` */
export function fetchUserRoles(userId: string, signal?: AbortSignal): Promise<RolesPublic> {
  return apiRequest<RolesPublic>({ path: `/authorization/user/${userId}/roles`, signal, admin: true });
}

export function userRolesQueryOptions(userId: string) {
  return queryOptions({
    queryKey: userRolesKeys.detail(userId),
    queryFn: ({ signal }) => fetchUserRoles(userId, signal),
  });
}

/** `PUT /authorization/user/{user_id}/roles` with the array of role ids: the user's whole new set. */
export function assignUserRoles(userId: string, roleIds: readonly string[]): Promise<RolesPublic> {
  return apiRequest<RolesPublic>({
    method: 'PUT',
    path: `/authorization/user/${userId}/roles`,
    json: roleIds,
    admin: true,
  });
}

export function useAssignUserRoles() {
  return useInvalidatingMutation({
    mutationFn: ({ userId, roleIds }: { userId: string; roleIds: readonly string[] }) =>
      assignUserRoles(userId, roleIds),
    successToast: 'Roles assigned successfully',
    invalidates: userRolesKeys.all,
  });
}

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
