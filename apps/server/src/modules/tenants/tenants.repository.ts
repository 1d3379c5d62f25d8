import type { PaginationQuery } from '@dataplatform/contract';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { paginate, type Page } from '../../lib/pagination.js';
import { tenantMembers, tenants, users } from '../../db/schema/index.js';

export type TenantRow = typeof tenants.$inferSelect;
export type NewTenantRow = typeof tenants.$inferInsert;

export async function findTenantById(db: DbOrTx, id: string): Promise<TenantRow | undefined> {
  const [row] = await db.select().from(tenants).where(eq(tenants.id, id)).limit(1);
  return row;
}

export async function findTenantByName(db: DbOrTx, name: string): Promise<TenantRow | undefined> {
  const [row] = await db.select().from(tenants).where(eq(tenants.name, name)).limit(1);
  return row;
}

/** The tenant and whether `userId` is one of its members, in one round trip (every tenant-scoped request). */
export async function findTenantWithMembership(
  db: DbOrTx,
  tenantId: string,
  userId: string,
): Promise<{ tenant: TenantRow; isMember: boolean } | undefined> {
  const [row] = await db
    .select({
      tenant: tenants,
      isMember: sql<boolean>`exists (select 1 from ${tenantMembers} where ${tenantMembers.tenantId} = ${tenants.id} and ${tenantMembers.userId} = ${userId})`,
    })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .limit(1);
  return row;
}

export async function insertTenant(db: DbOrTx, values: NewTenantRow): Promise<TenantRow> {
  const [row] = await db.insert(tenants).values(values).returning();
  return row!;
}

export async function updateTenant(
  db: DbOrTx,
  id: string,
  values: Partial<Omit<NewTenantRow, 'id' | 'createdAt'>>,
): Promise<TenantRow | undefined> {
  const [row] = await db.update(tenants).set(values).where(eq(tenants.id, id)).returning();
  return row;
}

/** Memberships go with the row (ON DELETE CASCADE). */
export async function deleteTenant(db: DbOrTx, id: string): Promise<TenantRow | undefined> {
  const [row] = await db.delete(tenants).where(eq(tenants.id, id)).returning();
  return row;
}

/**
 * By name, which is unique (tenants_name_unique), so it orders every page on its own: a tie-breaker
 * after it would make PostgreSQL sort what that index already reads in order.
 */
const BY_NAME = [asc(tenants.name)];

export async function listTenants(db: DbOrTx, page: PaginationQuery): Promise<Page<TenantRow>> {
  return paginate(db, tenants, { orderBy: BY_NAME }, page);
}

/** Active tenants `userId` belongs to, or every active tenant when `userId` is undefined. */
export async function listActiveTenantsOf(
  db: DbOrTx,
  userId: string | undefined,
  page: PaginationQuery,
): Promise<Page<TenantRow>> {
  const where =
    userId === undefined
      ? undefined
      : inArray(
          tenants.id,
          db.select({ id: tenantMembers.tenantId }).from(tenantMembers).where(eq(tenantMembers.userId, userId)),
        );
  return paginate(db, tenants, { match: [[tenants.status, 'active']], where, orderBy: BY_NAME }, page);
}

export async function listMemberIds(db: DbOrTx, tenantId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: tenantMembers.userId })
    .from(tenantMembers)
    .where(eq(tenantMembers.tenantId, tenantId))
    .orderBy(asc(tenantMembers.userId));
  return rows.map((row) => row.userId);
}

/** The ids among `userIds` that name no user. */
export async function findMissingUserIds(db: DbOrTx, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const found = await db.select({ id: users.id }).from(users).where(inArray(users.id, userIds));
  const existing = new Set(found.map((row) => row.id));
  return userIds.filter((id) => !existing.has(id));
}

/** Replace semantics: afterwards exactly `userIds` are members. */
export async function replaceMembers(db: DbOrTx, tenantId: string, userIds: string[]): Promise<void> {
  await db.delete(tenantMembers).where(eq(tenantMembers.tenantId, tenantId));
  if (userIds.length === 0) return;
  await db.insert(tenantMembers).values(userIds.map((userId) => ({ tenantId, userId })));
}

/** Locks the tenant row for the rest of the transaction: concurrent member replacements queue up. */
export async function lockTenant(db: DbOrTx, id: string): Promise<TenantRow | undefined> {
  const [row] = await db.select().from(tenants).where(eq(tenants.id, id)).for('update').limit(1);
  return row;
}
