import type { AccountSessions, SessionsRevoked } from '@dataplatform/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';

export const sessionKeys = {
  all: ['sessions'] as const,
  list: () => [...sessionKeys.all, 'list'] as const,
};

/** `GET /users/me/sessions`: the caller's live sign-ins, this one marked `current`. */
export function fetchSessions(): Promise<AccountSessions> {
  return apiRequest<AccountSessions>({ path: '/users/me/sessions' });
}

export function sessionsQueryOptions() {
  return queryOptions({ queryKey: sessionKeys.list(), queryFn: fetchSessions, meta: { errorToast: false } });
}

/** `DELETE /users/me/sessions/{id}`: signs one session out (its token is refused from then on). */
export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) =>
      apiRequest<null>({ method: 'DELETE', path: `/users/me/sessions/${encodeURIComponent(sessionId)}` }),
    // On failure too (not useInvalidatingMutation): a session that could not be signed out may have
    // ended already, so the list is loaded again either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

/** `POST /users/me/sessions/revoke-others`: signs out every session but this one. */
export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<SessionsRevoked>({ method: 'POST', path: '/users/me/sessions/revoke-others' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
