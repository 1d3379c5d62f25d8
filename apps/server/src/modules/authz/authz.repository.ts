import type { PaginationQuery } from '@dataplatform/contract';
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { paginate, type Page } from '../../lib/pagination.js';
import {
  permissions,
  planRoleGrants,
  plans,
  rolePermissions,
  roles,
  subscriptions,
  userRoles,
  users,
} from '../../db/schema/index.js';

export type RoleRow = typeof roles.$inferSelect;
export type PermissionRow = typeof permissions.$inferSelect;
type NewNamedRow = { name: string; description: string | null; createdBy: string | null; updatedBy: string | null };
type NamedRowChanges = Partial<{ name: string; description: string | null }> & { updatedBy: string; updatedAt: Date };

// Roles

export async function listRoles(db: DbOrTx, page: PaginationQuery): Promise<Page<RoleRow>> {
  return paginate(db, roles, { orderBy: [asc(roles.name), asc(roles.id)] }, page);
}

export async function findRoleById(db: DbOrTx, id: string): Promise<RoleRow | undefined> {
  const [row] = await db.select().from(roles).where(eq(roles.id, id)).limit(1);
  return row;
}

export async function insertRole(db: DbOrTx, values: NewNamedRow): Promise<RoleRow> {
  const [row] = await db.insert(roles).values(values).returning();
  return row!;
}

export async function updateRole(db: DbOrTx, id: string, values: NamedRowChanges): Promise<RoleRow | undefined> {
  const [row] = await db.update(roles).set(values).where(eq(roles.id, id)).returning();
  return row;
}

export async function deleteRole(db: DbOrTx, id: string): Promise<boolean> {
  const deleted = await db.delete(roles).where(eq(roles.id, id)).returning({ id: roles.id });
  return deleted.length > 0;
}

// Permissions

export async function listPermissions(db: DbOrTx, page: PaginationQuery): Promise<Page<PermissionRow>> {
  return paginate(db, permissions, { orderBy: [asc(permissions.name), asc(permissions.id)] }, page);
}

export async function findPermissionById(db: DbOrTx, id: string): Promise<PermissionRow | undefined> {
  const [row] = await db.select().from(permissions).where(eq(permissions.id, id)).limit(1);
  return row;
}

export async function insertPermission(db: DbOrTx, values: NewNamedRow): Promise<PermissionRow> {
  const [row] = await db.insert(permissions).values(values).returning();
  return row!;
}

export async function updatePermission(
  db: DbOrTx,
  id: string,
  values: NamedRowChanges,
): Promise<PermissionRow | undefined> {
  const [row] = await db.update(permissions).set(values).where(eq(permissions.id, id)).returning();
  return row;
}

export async function deletePermission(db: DbOrTx, id: string): Promise<boolean> {
  const deleted = await db.delete(permissions).where(eq(permissions.id, id)).returning({ id: permissions.id });
  return deleted.length > 0;
}

// Locks: an assignment change locks its owner (the user, or the role) so concurrent changes of the
// same set run one after the other, and locks the rows it points at (FOR KEY SHARE, as a foreign key
// check would) before touching assignments, so a concurrent delete waits instead of deadlocking.

export async function lockUser(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).for('no key update');
  return rows.length > 0;
}

export async function lockRole(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.select({ id: roles.id }).from(roles).where(eq(roles.id, id)).for('no key update');
  return rows.length > 0;
}

export async function keyShareRoles(db: DbOrTx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: roles.id }).from(roles).where(inArray(roles.id, ids)).for('key share');
  return new Set(rows.map((row) => row.id));
}

export async function keySharePermissions(db: DbOrTx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: permissions.id })
    .from(permissions)
    .where(inArray(permissions.id, ids))
    .for('key share');
  return new Set(rows.map((row) => row.id));
}

// User ↔ role

export async function listRolesOfUser(db: DbOrTx, userId: string): Promise<RoleRow[]> {
  const rows = await db
    .select({ role: roles })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, userId))
    .orderBy(asc(roles.name), asc(roles.id));
  return rows.map((row) => row.role);
}

export async function listUserIdsOfRole(db: DbOrTx, roleId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .where(eq(userRoles.roleId, roleId))
    .orderBy(asc(userRoles.userId));
  return rows.map((row) => row.userId);
}

/** Adds the pairs not already there; answers the ones it added. */
export async function insertUserRoles(
  db: DbOrTx,
  userId: string,
  roleIds: string[],
  createdBy: string | null,
  now: Date,
): Promise<{ roleId: string; createdAt: Date }[]> {
  if (roleIds.length === 0) return [];
  return db
    .insert(userRoles)
    .values(roleIds.map((roleId) => ({ userId, roleId, createdBy, createdAt: now })))
    .onConflictDoNothing()
    .returning({ roleId: userRoles.roleId, createdAt: userRoles.createdAt });
}

/** Removes every role of the user except `keepRoleIds`. */
export async function deleteUserRolesExcept(db: DbOrTx, userId: string, keepRoleIds: string[]): Promise<void> {
  const owner = eq(userRoles.userId, userId);
  await db
    .delete(userRoles)
    .where(keepRoleIds.length === 0 ? owner : and(owner, notInArray(userRoles.roleId, keepRoleIds)));
}

// Role ↔ permission

export async function listPermissionsOfRole(db: DbOrTx, roleId: string): Promise<PermissionRow[]> {
  const rows = await db
    .select({ permission: permissions })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(rolePermissions.roleId, roleId))
    .orderBy(asc(permissions.name), asc(permissions.id));
  return rows.map((row) => row.permission);
}

export async function listRoleIdsOfPermission(db: DbOrTx, permissionId: string): Promise<string[]> {
  const rows = await db
    .select({ roleId: rolePermissions.roleId })
    .from(rolePermissions)
    .where(eq(rolePermissions.permissionId, permissionId))
    .orderBy(asc(rolePermissions.roleId));
  return rows.map((row) => row.roleId);
}

export async function insertRolePermissions(
  db: DbOrTx,
  roleId: string,
  permissionIds: string[],
  createdBy: string | null,
  now: Date,
): Promise<{ permissionId: string; createdAt: Date }[]> {
  if (permissionIds.length === 0) return [];
  return db
    .insert(rolePermissions)
    .values(permissionIds.map((permissionId) => ({ roleId, permissionId, createdBy, createdAt: now })))
    .onConflictDoNothing()
    .returning({ permissionId: rolePermissions.permissionId, createdAt: rolePermissions.createdAt });
}

export async function deleteRolePermissionsExcept(
  db: DbOrTx,
  roleId: string,
  keepPermissionIds: string[],
): Promise<void> {
  const owner = eq(rolePermissions.roleId, roleId);
  await db
    .delete(rolePermissions)
    .where(
      keepPermissionIds.length === 0 ? owner : and(owner, notInArray(rolePermissions.permissionId, keepPermissionIds)),
    );
}

// Checks made on every guarded request: one indexed query each, nothing cached, so a revoked role
// or permission stops working on the very next request. A user holds the roles assigned by hand and
// those a paid subscription grants (decision 046): the union of `user_roles` and `plan_role_grants`.

/** The ids of the roles the user holds, either way, as a subquery. */
function heldRoles(db: DbOrTx, userId: string) {
  return union(
    db.select({ roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId)),
    db.select({ roleId: planRoleGrants.roleId }).from(planRoleGrants).where(eq(planRoleGrants.userId, userId)),
  ).as('held');
}

export async function userHasPermission(db: DbOrTx, userId: string, permissionName: string): Promise<boolean> {
  const held = heldRoles(db, userId);
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(held)
    .innerJoin(rolePermissions, eq(rolePermissions.roleId, held.roleId))
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(permissions.name, permissionName))
    .limit(1);
  return rows.length > 0;
}

export async function userHasRole(db: DbOrTx, userId: string, roleName: string): Promise<boolean> {
  const held = heldRoles(db, userId);
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(held)
    .innerJoin(roles, eq(roles.id, held.roleId))
    .where(eq(roles.name, roleName))
    .limit(1);
  return rows.length > 0;
}

export async function listRoleNamesOfUser(db: DbOrTx, userId: string): Promise<string[]> {
  const held = heldRoles(db, userId);
  const rows = await db
    .select({ name: roles.name })
    .from(held)
    .innerJoin(roles, eq(roles.id, held.roleId))
    .orderBy(asc(roles.name));
  return rows.map((row) => row.name);
}

/** The roles the user holds through subscriptions, with the plan of each (the console's roles tab). */
export async function listPlanGrantsOfUser(db: DbOrTx, userId: string) {
  return db
    .select({
      roleId: roles.id,
      roleName: roles.name,
      subscriptionId: planRoleGrants.subscriptionId,
      planId: plans.id,
      planName: plans.name,
      grantedAt: planRoleGrants.createdAt,
    })
    .from(planRoleGrants)
    .innerJoin(roles, eq(roles.id, planRoleGrants.roleId))
    .innerJoin(subscriptions, eq(subscriptions.id, planRoleGrants.subscriptionId))
    .leftJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(planRoleGrants.userId, userId))
    .orderBy(asc(roles.name), asc(roles.id));
}
