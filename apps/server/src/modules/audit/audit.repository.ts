import type { PaginationQuery } from '@dataplatform/contract';
import { desc } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { paginate, type Page } from '../../lib/pagination.js';
import type { ColumnMatch } from '../../lib/row-counts.js';
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
  page: PaginationQuery,
): Promise<Page<AuditRow>> {
  const match: ColumnMatch[] = [];
  if (filters.actorId !== undefined) match.push([auditLog.actorId, filters.actorId]);
  if (filters.targetType !== undefined) match.push([auditLog.targetType, filters.targetType]);
  if (filters.targetId !== undefined) match.push([auditLog.targetId, filters.targetId]);
  if (filters.action !== undefined) match.push([auditLog.action, filters.action]);
  return paginate(db, auditLog, { match, orderBy: [desc(auditLog.createdAt), desc(auditLog.id)] }, page);
}
