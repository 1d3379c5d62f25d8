import type { UserMe } from '@dataplatform/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client.js';

/** The one cache key of `GET /users/me`: the sign-in, the admin console and the settings share it. */
export const currentUserKeys = { all: ['current-user'] as const };

/** `GET /users/me`: the signed-in user with the names of its roles. */
export function fetchCurrentUser(): Promise<UserMe> {
  return apiRequest<UserMe>({ path: '/users/me' });
}

export function currentUserQueryOptions() {
  // Without the query's signal: a query that reads its signal is cancelled when its last screen
  // unmounts, and a signed-in tab's frame, the first to ask, unmounts as the tab replaces it, so the
  // tab asked again. Unread, the request goes on and the tab takes its answer.
  return queryOptions({ queryKey: currentUserKeys.all, queryFn: fetchCurrentUser });
}

/** The signed-in user, loaded once for every screen that shows or uses it. */
export function useCurrentUser({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...currentUserQueryOptions(), enabled });
}
