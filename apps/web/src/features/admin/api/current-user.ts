import type { UserPublic } from '@dataplatform/contract';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';

export const currentUserKeys = { all: ['admin', 'current-user'] as const };

/** `GET /users/me`: the admin console uses only its id. */
export function fetchCurrentUser(signal?: AbortSignal): Promise<UserPublic> {
  return apiRequest<UserPublic>({ path: '/users/me', signal, admin: true });
}

export function currentUserQueryOptions() {
  return queryOptions({ queryKey: currentUserKeys.all, queryFn: ({ signal }) => fetchCurrentUser(signal) });
}

/**
 * The id a create sends as created_by/updated_by (ADM-ROLES-5): "User not authenticated" when
 * the current user cannot be loaded. The server ignores these fields and records the caller itself.
 */
export async function requireCurrentUserId(queryClient: QueryClient): Promise<string> {
  try {
    const user = await queryClient.fetchQuery(currentUserQueryOptions());
    return user.id;
  } catch {
    throw new Error('User not authenticated');
  }
}
