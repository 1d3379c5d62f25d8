import type { TenantSummaries } from '@dataplatform/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './api-client.js';

/** More tenants than one person switches between; the list is not paged in the switcher. */
const MY_TENANTS_LIMIT = 100;

export const myTenantsKeys = {
  all: ['my-tenants'] as const,
  list: () => [...myTenantsKeys.all, 'list'] as const,
};

/**
 * `GET /users/me/tenants`: the active tenants the signed-in user may select. Sent without
 * X-Tenant-ID, so a stored tenant the user has lost does not get this very call refused.
 */
export function fetchMyTenants(signal?: AbortSignal): Promise<TenantSummaries> {
  return apiRequest<TenantSummaries>({
    path: '/users/me/tenants',
    query: { limit: MY_TENANTS_LIMIT },
    signal,
    withoutTenant: true,
  });
}

export function myTenantsQueryOptions() {
  return queryOptions({
    queryKey: myTenantsKeys.list(),
    queryFn: ({ signal }) => fetchMyTenants(signal),
    staleTime: 60_000,
    // A top-bar convenience: a failure hides the switcher rather than raising a toast on every page.
    meta: { errorToast: false },
  });
}
