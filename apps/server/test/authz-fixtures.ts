import { randomBytes } from 'node:crypto';
import type { PermissionName } from '@dataplatform/contract';
import { eq, inArray } from 'drizzle-orm';
import { permissions } from '../src/db/schema/index.js';
import {
  insertRole,
  insertRolePermissions,
  insertUserRoles,
  type RoleRow,
} from '../src/modules/authz/authz.repository.js';
import type { TestContext } from './harness.js';

/** The id of a seeded permission, by name. */
export async function permissionIdOf(ctx: TestContext, name: string): Promise<string> {
  const [row] = await ctx.database.db.select().from(permissions).where(eq(permissions.name, name));
  if (!row) throw new Error(`no permission named ${name}`);
  return row.id;
}

/**
 * Straight into the database: a role (named `name`, or a random one) holding exactly `grants`,
 * given to each of `userIds`.
 */
export async function createRole(
  ctx: TestContext,
  options: { name?: string; grants?: readonly PermissionName[]; userIds?: string[] } = {},
): Promise<RoleRow> {
  const db = ctx.database.db;
  const role = await insertRole(db, {
    name: options.name ?? `role-${randomBytes(4).toString('hex')}`,
    description: null,
    createdBy: null,
    updatedBy: null,
  });
  const grants = options.grants ?? [];
  if (grants.length > 0) {
    const rows = await db
      .select()
      .from(permissions)
      .where(inArray(permissions.name, [...grants]));
    if (rows.length !== grants.length) throw new Error(`unknown permission among ${grants.join(', ')}`);
    await insertRolePermissions(
      db,
      role.id,
      rows.map((row) => row.id),
      null,
      new Date(),
    );
  }
  for (const userId of options.userIds ?? []) await insertUserRoles(db, userId, [role.id], null, new Date());
  return role;
}
