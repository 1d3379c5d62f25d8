import type {
  SsoConnectionCreate,
  SsoConnectionPublic,
  SsoConnectionsPublic,
  SsoConnectionUpdate,
} from '@dataplatform/contract';
import { ssoMessages } from '@dataplatform/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation.js';

export const SSO_CONNECTIONS_PAGE_SIZE = 10;

export const ssoConnectionsKeys = {
  all: ['admin', 'sso-connections'] as const,
  list: (page: { skip: number; limit: number }) => [...ssoConnectionsKeys.all, 'list', page] as const,
};

/** `GET /sso/connections`: never carries a client secret (SSO-1). */
function fetchSsoConnections(page: { skip: number; limit: number }, signal?: AbortSignal) {
  return apiRequest<SsoConnectionsPublic>({ path: '/sso/connections', query: page, signal, admin: true });
}

export function ssoConnectionsQueryOptions(page: { skip: number; limit: number }) {
  return queryOptions({
    queryKey: ssoConnectionsKeys.list(page),
    queryFn: ({ signal }) => fetchSsoConnections(page, signal),
    placeholderData: keepPreviousData,
  });
}

export function useCreateSsoConnection() {
  return useInvalidatingMutation({
    mutationFn: (body: SsoConnectionCreate) =>
      apiRequest<SsoConnectionPublic>({ method: 'POST', path: '/sso/connections', json: body, admin: true }),
    successToast: ssoMessages.created,
    invalidates: ssoConnectionsKeys.all,
  });
}

/** `PUT /sso/connections/{id}`: a blank secret is left out, so the stored one stays. */
export function useUpdateSsoConnection() {
  return useInvalidatingMutation({
    mutationFn: ({ id, body }: { id: string; body: SsoConnectionUpdate }) =>
      apiRequest<SsoConnectionPublic>({ method: 'PUT', path: `/sso/connections/${id}`, json: body, admin: true }),
    successToast: ssoMessages.updated,
    invalidates: ssoConnectionsKeys.all,
  });
}

export function useDeleteSsoConnection() {
  return useInvalidatingMutation({
    mutationFn: (id: string) => apiRequest<void>({ method: 'DELETE', path: `/sso/connections/${id}`, admin: true }),
    successToast: ssoMessages.deleted,
    invalidates: ssoConnectionsKeys.all,
  });
}
