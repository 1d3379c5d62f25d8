import type { PermissionsPublic } from '@dataplatform/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation.js';

export const rolePermissionsKeys = {
  all: ['admin', 'role-permissions'] as const,
  detail: (roleId: string) => [...rolePermissionsKeys.all, 'detail', roleId] as const,
};

/** `GET /authorization/role/{role_id}/permissions` */
export function fetchRolePermissions(roleId: string, signal?: AbortSignal): Promise<PermissionsPublic> {
  return apiRequest<PermissionsPublic>({ path: `/authorization/role/${roleId}/permissions`, signal, admin: true });
}

export function rolePermissionsQueryOptions(roleId: string) {
  return queryOptions({
    queryKey: rolePermissionsKeys.detail(roleId),
    queryFn: ({ signal }) => fetchRolePermissions(roleId, signal),
  });
}

/** `PUT /authorization/role/{role_id}/permissions` with the array of permission ids: the whole new set. */
export function assignRolePermissions(roleId: string, permissionIds: readonly string[]): Promise<PermissionsPublic> {
  return apiRequest<PermissionsPublic>({
    method: 'PUT',
    path: `/authorization/role/${roleId}/permissions`,
    json: permissionIds,
    admin: true,
  });
}

export function useAssignRolePermissions() {
  return useInvalidatingMutation({
    mutationFn: ({ roleId, permissionIds }: { roleId: string; permissionIds: readonly string[] }) =>
      assignRolePermissions(roleId, permissionIds),
    successToast: 'Permissions assigned successfully',
    invalidates: rolePermissionsKeys.all,
  });
}
