import type {
  SsoConnectionCreate,
  SsoConnectionPublic,
  SsoConnectionsPublic,
  SsoConnectionUpdate,
} from '@dataplatform/contract';
import { ssoMessages } from '@dataplatform/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { showToast } from '../../../lib/toast-store.js';

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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SsoConnectionCreate) =>
      apiRequest<SsoConnectionPublic>({ method: 'POST', path: '/sso/connections', json: body, admin: true }),
    onSuccess: async () => {
      showToast(ssoMessages.created, 'success');
      await queryClient.invalidateQueries({ queryKey: ssoConnectionsKeys.all });
    },
  });
}

/** `PUT /sso/connections/{id}`: a blank secret is left out, so the stored one stays. */
export function useUpdateSsoConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: SsoConnectionUpdate }) =>
      apiRequest<SsoConnectionPublic>({ method: 'PUT', path: `/sso/connections/${id}`, json: body, admin: true }),
    onSuccess: async () => {
      showToast(ssoMessages.updated, 'success');
      await queryClient.invalidateQueries({ queryKey: ssoConnectionsKeys.all });
    },
  });
}

export function useDeleteSsoConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>({ method: 'DELETE', path: `/sso/connections/${id}`, admin: true }),
    onSuccess: async () => {
      showToast(ssoMessages.deleted, 'success');
      await queryClient.invalidateQueries({ queryKey: ssoConnectionsKeys.all });
    },
  });
}
