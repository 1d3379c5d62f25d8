import type { TenantMembers } from '@dataplatform/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation.js';

export const tenantMembersKeys = {
  all: ['admin', 'tenant-members'] as const,
  detail: (tenantId: string) => [...tenantMembersKeys.all, 'detail', tenantId] as const,
};

/** `GET /tenants/{tenant_id}/members`: the member user ids. */
export function fetchTenantMembers(tenantId: string, signal?: AbortSignal): Promise<TenantMembers> {
  return apiRequest<TenantMembers>({ path: `/tenants/${tenantId}/members`, signal, admin: true });
}

export function tenantMembersQueryOptions(tenantId: string) {
  return queryOptions({
    queryKey: tenantMembersKeys.detail(tenantId),
    queryFn: ({ signal }) => fetchTenantMembers(tenantId, signal),
  });
}

/** `PUT /tenants/{tenant_id}/members`: replaces the whole member set. */
export function setTenantMembers(tenantId: string, userIds: readonly string[]): Promise<TenantMembers> {
  return apiRequest<TenantMembers>({
    method: 'PUT',
    path: `/tenants/${tenantId}/members`,
    json: userIds,
    admin: true,
  });
}

export function useSetTenantMembers() {
  return useInvalidatingMutation({
    mutationFn: ({ tenantId, userIds }: { tenantId: string; userIds: readonly string[] }) =>
      setTenantMembers(tenantId, userIds),
    successToast: 'Members updated successfully',
    invalidates: tenantMembersKeys.all,
  });
}
