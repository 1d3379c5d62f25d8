import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { auditLog } from '../../db/schema/index.js';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

export interface AuditFilters {
  actorId?: string;
  targetType?: string;
  targetId?: string;
  action?: string;
}

/** The only write the audit log knows: it is append-only (a trigger refuses UPDATE and DELETE). */
export async function insertAuditEntry(db: DbOrTx, values: NewAuditRow): Promise<void> {
  await db.insert(auditLog).values(values);
}

export async function listAuditEntries(
  db: DbOrTx,
  filters: AuditFilters,
  page: { skip: number; limit: number },
): Promise<{ rows: AuditRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filters.actorId !== undefined) conditions.push(eq(auditLog.actorId, filters.actorId));
  if (filters.targetType !== undefined) conditions.push(eq(auditLog.targetType, filters.targetType));
  if (filters.targetId !== undefined) conditions.push(eq(auditLog.targetId, filters.targetId));
  if (filters.action !== undefined) conditions.push(eq(auditLog.action, filters.action));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .offset(page.skip)
      .limit(page.limit),
    db.select({ total: count() }).from(auditLog).where(where),
  ]);
  return { rows, total: totals?.total ?? 0 };
}
