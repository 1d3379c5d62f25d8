import type { PermissionPublic, RolePublic } from '@dataplatform/contract';
import type { PermissionRow, RoleRow } from './authz.repository.js';

/** Roles and permissions leave the server (and enter the audit log) only through these. */
export function toRolePublic(row: RoleRow): RolePublic {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toPermissionPublic(row: PermissionRow): PermissionPublic {
  return toRolePublic(row);
}
