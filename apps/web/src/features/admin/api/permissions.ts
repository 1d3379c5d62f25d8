import { ALL_PERMISSIONS, PAGE_LIMIT_MAX, type PermissionPublic, type PermissionsPublic } from '@dataplatform/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation.js';
import { requireCurrentUserId } from './current-user.js';

/** What the permission dialogs edit. */
export interface PermissionInput {
  name: string;
  description: string | null;
}

export const permissionsKeys = {
  all: ['admin', 'permissions'] as const,
  list: () => [...permissionsKeys.all, 'list'] as const,
};

/** Permissions the server seeds and guards its routes with: they cannot be renamed or deleted. */
export function isBuiltInPermission(name: string): boolean {
  return (ALL_PERMISSIONS as readonly string[]).includes(name);
}

/** `GET /authorization/permissions`: every permission (the tab pages them in the browser, ADM-PERMS-1). */
export function fetchPermissions(signal?: AbortSignal): Promise<PermissionsPublic> {
  return apiRequest<PermissionsPublic>({
    path: '/authorization/permissions',
    query: { limit: PAGE_LIMIT_MAX },
    signal,
    admin: true,
  });
}

export function permissionsQueryOptions() {
  return queryOptions({ queryKey: permissionsKeys.list(), queryFn: ({ signal }) => fetchPermissions(signal) });
}

/** `POST /authorization/permissions` with created_by/updated_by as the seed's client sends them. */
export function createPermission(
  body: PermissionInput & { created_by: string; updated_by: string },
): Promise<PermissionPublic> {
  return apiRequest<PermissionPublic>({ method: 'POST', path: '/authorization/permissions', json: body, admin: true });
}

/** `PUT /authorization/permissions/{permission_id}` */
export function updatePermission(id: string, body: PermissionInput): Promise<PermissionPublic> {
  return apiRequest<PermissionPublic>({
    method: 'PUT',
    path: `/authorization/permissions/${id}`,
    json: body,
    admin: true,
  });
}

/** `DELETE /authorization/permissions/{permission_id}` */
export function deletePermission(id: string): Promise<void> {
  return apiRequest<void>({ method: 'DELETE', path: `/authorization/permissions/${id}`, admin: true });
}

export function useCreatePermission() {
  return useInvalidatingMutation({
    mutationFn: async (input: PermissionInput, queryClient) => {
      const userId = await requireCurrentUserId(queryClient);
      return createPermission({ ...input, created_by: userId, updated_by: userId });
    },
    successToast: 'Permission created successfully',
    invalidates: permissionsKeys.all,
  });
}

export function useUpdatePermission() {
  return useInvalidatingMutation({
    mutationFn: ({ permission, input }: { permission: PermissionPublic; input: PermissionInput }) =>
      updatePermission(permission.id, input),
    successToast: 'Permission updated successfully',
    invalidates: permissionsKeys.all,
  });
}

export function useDeletePermission() {
  return useInvalidatingMutation({
    mutationFn: deletePermission,
    successToast: 'Permission deleted successfully',
    invalidates: permissionsKeys.all,
  });
}
