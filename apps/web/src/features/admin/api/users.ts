import {
  USER_IDS_MAX,
  type Message,
  type SessionsRevoked,
  type UserCreate,
  type UserPublic,
  type UsersPublic,
  type UserUpdate,
} from '@dataplatform/contract';
import { keepPreviousData, queryOptions, useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { showToast } from '../../../lib/toast-store.js';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation.js';

/** Admin page size (ADM-USERS-5). */
export const USERS_PAGE_SIZE = 10;

export interface UsersListParams {
  skip: number;
  limit: number;
  /** Server-side search by e-mail or name; blank means everyone. */
  q?: string;
}

export const usersKeys = {
  all: ['admin', 'users'] as const,
  list: (params: UsersListParams) => [...usersKeys.all, 'list', params] as const,
  byIds: (ids: readonly string[]) => [...usersKeys.all, 'by-ids', ids] as const,
};

/** `GET /users/` with skip, limit and the optional search `q`: `{ data, count }`. */
export function fetchUsers(params: UsersListParams, signal?: AbortSignal): Promise<UsersPublic> {
  const q = params.q?.trim();
  return apiRequest<UsersPublic>({
    path: '/users/',
    query: { skip: params.skip, limit: params.limit, q: q === '' ? undefined : q },
    signal,
    admin: true,
  });
}

/** One page of users; the previous page stays on screen while the next one loads. */
export function usersQueryOptions(params: UsersListParams) {
  return queryOptions({
    queryKey: usersKeys.list(params),
    queryFn: ({ signal }) => fetchUsers(params, signal),
    placeholderData: keepPreviousData,
  });
}

/** `GET /users/?ids=`: the users of at most USER_IDS_MAX ids, in one request (unknown ids are left out). */
export function fetchUsersByIds(ids: readonly string[], signal?: AbortSignal): Promise<UsersPublic> {
  return apiRequest<UsersPublic>({
    path: '/users/',
    query: { ids: ids.join(','), limit: USER_IDS_MAX },
    signal,
    admin: true,
  });
}

/**
 * The users of `ids`, one query per USER_IDS_MAX of them (the most one request may name): pass
 * each to useQueries.
 */
export function usersByIdsQueries(ids: readonly string[]) {
  const batches: string[][] = [];
  for (let start = 0; start < ids.length; start += USER_IDS_MAX) batches.push(ids.slice(start, start + USER_IDS_MAX));
  return batches.map((batch) =>
    queryOptions({ queryKey: usersKeys.byIds(batch), queryFn: ({ signal }) => fetchUsersByIds(batch, signal) }),
  );
}

/** `POST /users/` */
export function createUser(body: UserCreate): Promise<UserPublic> {
  return apiRequest<UserPublic>({ method: 'POST', path: '/users/', json: body, admin: true });
}

/** `PATCH /users/{user_id}` */
export function updateUser(id: string, body: UserUpdate): Promise<UserPublic> {
  return apiRequest<UserPublic>({ method: 'PATCH', path: `/users/${id}`, json: body, admin: true });
}

/** `DELETE /users/{user_id}` */
export function deleteUser(id: string): Promise<void> {
  return apiRequest<void>({ method: 'DELETE', path: `/users/${id}`, admin: true });
}

export function useCreateUser() {
  return useInvalidatingMutation({
    mutationFn: createUser,
    successToast: 'User created successfully',
    invalidates: usersKeys.all,
  });
}

export function useUpdateUser() {
  return useInvalidatingMutation({
    mutationFn: ({ id, body }: { id: string; body: UserUpdate }) => updateUser(id, body),
    successToast: 'User updated successfully',
    invalidates: usersKeys.all,
  });
}

export function useDeleteUser() {
  return useInvalidatingMutation({
    mutationFn: deleteUser,
    successToast: 'User deleted successfully',
    invalidates: usersKeys.all,
  });
}

/** `POST /users/{user_id}/sessions/revoke` (superusers): every session of the user ends at once. */
export function signOutUserEverywhere(id: string): Promise<SessionsRevoked> {
  return apiRequest<SessionsRevoked>({ method: 'POST', path: `/users/${id}/sessions/revoke`, admin: true });
}

export function useSignOutUserEverywhere() {
  return useMutation({
    mutationFn: (user: Pick<UserPublic, 'id' | 'email'>) => signOutUserEverywhere(user.id),
    onSuccess: ({ revoked }, user) =>
      showToast(
        `${user.email} is signed out everywhere (${revoked === 1 ? '1 session' : `${revoked} sessions`} ended)`,
        'success',
      ),
  });
}

/**
 * `POST /users/{user_id}/two-factor/reset` (superusers): turns off the second factor of a user who
 * lost it, and signs them out everywhere.
 */
export function resetUserTwoFactor(id: string): Promise<Message> {
  return apiRequest<Message>({ method: 'POST', path: `/users/${id}/two-factor/reset`, admin: true });
}

export function useResetUserTwoFactor() {
  return useMutation({
    mutationFn: (user: Pick<UserPublic, 'id' | 'email'>) => resetUserTwoFactor(user.id),
    onSuccess: (_answer, user) =>
      showToast(`Two-factor authentication is off for ${user.email}; they are signed out everywhere`, 'success'),
  });
}
