import { and, asc, count, desc, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { reportLinks, roles, tenantMembers, users } from '../../db/schema/index.js';

export type ReportLinkRow = typeof reportLinks.$inferSelect;

export async function insertReportLink(db: DbOrTx, row: typeof reportLinks.$inferInsert): Promise<ReportLinkRow> {
  const [inserted] = await db.insert(reportLinks).values(row).returning();
  return inserted!;
}

export function listReportLinks(db: DbOrTx, reportId: string): Promise<ReportLinkRow[]> {
  return db
    .select()
    .from(reportLinks)
    .where(eq(reportLinks.reportId, reportId))
    .orderBy(desc(reportLinks.createdAt), desc(reportLinks.id));
}

/** Links of a report that are neither revoked nor expired at `now`. */
export async function countLiveLinks(db: DbOrTx, reportId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(reportLinks)
    .where(
      and(
        eq(reportLinks.reportId, reportId),
        isNull(reportLinks.revokedAt),
        or(isNull(reportLinks.expiresAt), gt(reportLinks.expiresAt, now)),
      ),
    );
  return row?.n ?? 0;
}

export async function findLinkByHash(db: DbOrTx, tokenHash: string): Promise<ReportLinkRow | undefined> {
  const [row] = await db.select().from(reportLinks).where(eq(reportLinks.tokenHash, tokenHash)).limit(1);
  return row;
}

export async function findLink(db: DbOrTx, tenantId: string, id: string): Promise<ReportLinkRow | undefined> {
  const [row] = await db
    .select()
    .from(reportLinks)
    .where(and(eq(reportLinks.id, id), eq(reportLinks.tenantId, tenantId)))
    .limit(1);
  return row;
}

export async function revokeLink(db: DbOrTx, id: string, at: Date): Promise<ReportLinkRow | undefined> {
  const [row] = await db
    .update(reportLinks)
    .set({ revokedAt: at })
    .where(and(eq(reportLinks.id, id), isNull(reportLinks.revokedAt)))
    .returning();
  return row;
}

/** Which of `userIds` are members of the tenant. */
export async function membersAmong(db: DbOrTx, tenantId: string, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: tenantMembers.userId })
    .from(tenantMembers)
    .where(and(eq(tenantMembers.tenantId, tenantId), inArray(tenantMembers.userId, [...userIds])));
  return new Set(rows.map((row) => row.userId));
}

/** Which of `roleIds` exist. */
export async function rolesAmong(db: DbOrTx, roleIds: readonly string[]): Promise<Set<string>> {
  if (roleIds.length === 0) return new Set();
  const rows = await db
    .select({ id: roles.id })
    .from(roles)
    .where(inArray(roles.id, [...roleIds]));
  return new Set(rows.map((row) => row.id));
}

/** The tenant's active members by email, at most `limit`: whom an author may name on a restricted report. */
export function listTenantMembers(db: DbOrTx, tenantId: string, limit: number) {
  return db
    .select({ id: users.id, email: users.email, fullName: users.fullName })
    .from(tenantMembers)
    .innerJoin(users, eq(users.id, tenantMembers.userId))
    .where(and(eq(tenantMembers.tenantId, tenantId), eq(users.isActive, true)))
    .orderBy(asc(users.email))
    .limit(limit);
}

/** Every role by name. */
export function listRoles(db: DbOrTx) {
  return db.select({ id: roles.id, name: roles.name }).from(roles).orderBy(asc(roles.name));
}
