import type { RolesPublic } from '@dataplatform/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { showToast } from '../../../lib/toast-store.js';

export const userRolesKeys = {
  all: ['admin', 'user-roles'] as const,
  detail: (userId: string) => [...userRolesKeys.all, 'detail', userId] as const,
};

/** `GET /authorization/user/{user_id}/roles` */
export function fetchUserRoles(userId: string, signal?: AbortSignal): Promise<RolesPublic> {
  return apiRequest<RolesPublic>({ path: `/authorization/user/${userId}/roles`, signal, admin: true });
}

export function userRolesQueryOptions(userId: string) {
  return queryOptions({
    queryKey: userRolesKeys.detail(userId),
    queryFn: ({ signal }) => fetchUserRoles(userId, signal),
  });
}

/** `PUT /authorization/user/{user_id}/roles` with the array of role ids: the user's whole new set. */
export function assignUserRoles(userId: string, roleIds: readonly string[]): Promise<RolesPublic> {
  return apiRequest<RolesPublic>({
    method: 'PUT',
    path: `/authorization/user/${userId}/roles`,
    json: roleIds,
    admin: true,
  });
}

export function useAssignUserRoles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, roleIds }: { userId: string; roleIds: readonly string[] }) =>
      assignUserRoles(userId, roleIds),
    onSuccess: async () => {
      showToast('Roles assigned successfully', 'success');
      await queryClient.invalidateQueries({ queryKey: userRolesKeys.all });
    },
  });
}
