import type { PermissionsPublic } from '@dataplatform/contract';
import { idSetResource } from './id-set.js';

/** `GET` and `PUT /authorization/role/{role_id}/permissions`: a role's permissions, replaced whole. */
const rolePermissions = idSetResource<PermissionsPublic>({
  key: 'role-permissions',
  path: (roleId) => `/authorization/role/${roleId}/permissions`,
  savedToast: 'Permissions assigned successfully',
});

export const rolePermissionsQueryOptions = rolePermissions.queryOptions;
export const useAssignRolePermissions = rolePermissions.useReplace;
