import type { UserMe } from '@dataplatform/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client.js';

/** The one cache key of `GET /users/me`: the sign-in, the admin console and the settings share it. */
export const currentUserKeys = { all: ['current-user'] as const };

/** `GET /users/me`: the signed-in user with the names of its roles. */
export function fetchCurrentUser(signal?: AbortSignal): Promise<UserMe> {
  return apiRequest<UserMe>({ path: '/users/me', signal });
}

export function currentUserQueryOptions() {
  return queryOptions({ queryKey: currentUserKeys.all, queryFn: ({ signal }) => fetchCurrentUser(signal) });
}

/** The signed-in user, loaded once for every screen that shows or uses it. */
export function useCurrentUser({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...currentUserQueryOptions(), enabled });
}
