import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ownerId, updatedAt } from './columns.js';
import { users } from './users.js';

/** Who made and last changed a row; kept (as NULL) when that user is deleted. */
const authored = {
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
};

export const roles = pgTable(
  'roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description'),
    ...authored,
  },
  // "Support" and "support" would be two roles nobody can tell apart in the console.
  (t) => [uniqueIndex('roles_name_lower_unique').on(sql`lower(${t.name})`)],
);

export const permissions = pgTable(
  'permissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description'),
    ...authored,
  },
  (t) => [uniqueIndex('permissions_name_lower_unique').on(sql`lower(${t.name})`)],
);

/** Deleting a user or a role removes its assignments. */
export const userRoles = pgTable(
  'user_roles',
  {
    userId: ownerId('user_id', () => users.id),
    roleId: ownerId('role_id', () => roles.id),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('user_roles_role_id_idx').on(t.roleId)],
);

export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleId: ownerId('role_id', () => roles.id),
    permissionId: ownerId('permission_id', () => permissions.id),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.roleId, t.permissionId] }),
    index('role_permissions_permission_id_idx').on(t.permissionId),
  ],
);
