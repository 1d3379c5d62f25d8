import type { UserMe } from '@dataplatform/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';

export const meKeys = {
  all: ['me'] as const,
  detail: () => [...meKeys.all, 'detail'] as const,
};

/** `GET /users/me`: the signed-in user with the names of its roles. */
export function fetchMe(): Promise<UserMe> {
  return apiRequest<UserMe>({ path: '/users/me' });
}

export function meQueryOptions() {
  return queryOptions({ queryKey: meKeys.detail(), queryFn: fetchMe });
}
