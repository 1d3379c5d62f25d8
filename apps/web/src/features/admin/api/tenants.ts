import type {
  TenantConnectionCheck,
  TenantCreate,
  TenantPublic,
  TenantsPublic,
  TenantUpdate,
} from '@dataplatform/contract';
import { keepPreviousData, queryOptions, useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation.js';

/** Admin page size (ADM-TENANTS-4). */
export const TENANTS_PAGE_SIZE = 10;

export const tenantsKeys = {
  all: ['admin', 'tenants'] as const,
  list: (page: { skip: number; limit: number }) => [...tenantsKeys.all, 'list', page] as const,
};

/** `GET /tenants/` with skip and limit; each `dburl` comes back with its password masked. */
export function fetchTenants(page: { skip: number; limit: number }, signal?: AbortSignal): Promise<TenantsPublic> {
  return apiRequest<TenantsPublic>({ path: '/tenants/', query: page, signal, admin: true });
}

export function tenantsQueryOptions(page: { skip: number; limit: number }) {
  return queryOptions({
    queryKey: tenantsKeys.list(page),
    queryFn: ({ signal }) => fetchTenants(page, signal),
    placeholderData: keepPreviousData,
  });
}

/** `POST /tenants/` */
export function createTenant(body: TenantCreate): Promise<TenantPublic> {
  return apiRequest<TenantPublic>({ method: 'POST', path: '/tenants/', json: body, admin: true });
}

/** `PUT /tenants/{tenant_id}`: the masked URL sent back unchanged keeps the stored password. */
export function updateTenant(id: string, body: TenantUpdate): Promise<TenantPublic> {
  return apiRequest<TenantPublic>({ method: 'PUT', path: `/tenants/${id}`, json: body, admin: true });
}

/** `DELETE /tenants/{tenant_id}` */
export function deleteTenant(id: string): Promise<void> {
  return apiRequest<void>({ method: 'DELETE', path: `/tenants/${id}`, admin: true });
}

/** `POST /tenants/{tenant_id}/check-connection`: the server version and latency, or the driver's reason. */
export function checkTenantConnection(id: string): Promise<TenantConnectionCheck> {
  return apiRequest<TenantConnectionCheck>({ method: 'POST', path: `/tenants/${id}/check-connection`, admin: true });
}

export function useCreateTenant() {
  return useInvalidatingMutation({
    mutationFn: createTenant,
    successToast: 'Tenant created successfully',
    invalidates: tenantsKeys.all,
  });
}

export function useUpdateTenant() {
  return useInvalidatingMutation({
    mutationFn: ({ id, body }: { id: string; body: TenantUpdate }) => updateTenant(id, body),
    successToast: 'Tenant updated successfully',
    invalidates: tenantsKeys.all,
  });
}

export function useDeleteTenant() {
  return useInvalidatingMutation({
    mutationFn: deleteTenant,
    successToast: 'Tenant deleted successfully',
    invalidates: tenantsKeys.all,
  });
}

/** The result is shown beside the tenant (not a toast), so failures of the call itself still toast. */
export function useCheckTenantConnection() {
  return useMutation({ mutationFn: checkTenantConnection });
}
