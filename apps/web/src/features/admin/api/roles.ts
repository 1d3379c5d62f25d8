import { PAGE_LIMIT_MAX, type RolePublic, type RolesPublic } from '@dataplatform/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation.js';
import { requireCurrentUserId } from './current-user.js';

/** What the role dialogs edit. */
export interface RoleInput {
  name: string;
  description: string | null;
}

export const rolesKeys = {
  all: ['admin', 'roles'] as const,
  list: () => [...rolesKeys.all, 'list'] as const,
};

/** `GET /authorization/roles`: every role (the tab pages them in the browser, ADM-ROLES-2). */
export function fetchRoles(signal?: AbortSignal): Promise<RolesPublic> {
  return apiRequest<RolesPublic>({
    path: '/authorization/roles',
    query: { limit: PAGE_LIMIT_MAX },
    signal,
    admin: true,
  });
}

export function rolesQueryOptions() {
  return queryOptions({ queryKey: rolesKeys.list(), queryFn: ({ signal }) => fetchRoles(signal) });
}

/** `POST /authorization/roles` with created_by/updated_by as the seed's client sends them. */
export function createRole(body: RoleInput & { created_by: string; updated_by: string }): Promise<RolePublic> {
  return apiRequest<RolePublic>({ method: 'POST', path: '/authorization/roles', json: body, admin: true });
}

/** `PUT /authorization/roles/{role_id}` */
export function updateRole(
  id: string,
  body: RoleInput & { created_by: string | null; updated_by: string },
): Promise<RolePublic> {
  return apiRequest<RolePublic>({ method: 'PUT', path: `/authorization/roles/${id}`, json: body, admin: true });
}

/** `DELETE /authorization/roles/{role_id}` */
export function deleteRole(id: string): Promise<void> {
  return apiRequest<void>({ method: 'DELETE', path: `/authorization/roles/${id}`, admin: true });
}

export function useCreateRole() {
  return useInvalidatingMutation({
    mutationFn: async (input: RoleInput, queryClient) => {
      const userId = await requireCurrentUserId(queryClient);
      return createRole({ ...input, created_by: userId, updated_by: userId });
    },
    successToast: 'Role created successfully',
    invalidates: rolesKeys.all,
  });
}

export function useUpdateRole() {
  return useInvalidatingMutation({
    mutationFn: async ({ role, input }: { role: RolePublic; input: RoleInput }, queryClient) => {
      // The seed's client sends the same fields as on create; the server records the caller itself.
      const userId = await requireCurrentUserId(queryClient);
      return updateRole(role.id, { ...input, created_by: role.created_by, updated_by: userId });
    },
    successToast: 'Role updated successfully',
    invalidates: rolesKeys.all,
  });
}

export function useDeleteRole() {
  return useInvalidatingMutation({
    mutationFn: deleteRole,
    successToast: 'Role deleted successfully',
    invalidates: rolesKeys.all,
  });
}
