import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { ContactStatus } from '@dataplatform/contract';
import type { DbOrTx } from '../../db/client.js';
import { contactSubmissions } from '../../db/schema/index.js';

export type ContactSubmissionRow = typeof contactSubmissions.$inferSelect;
export type NewContactSubmissionRow = typeof contactSubmissions.$inferInsert;

export async function insertSubmission(db: DbOrTx, values: NewContactSubmissionRow): Promise<ContactSubmissionRow> {
  const [row] = await db.insert(contactSubmissions).values(values).returning();
  return row!;
}

export async function findSubmissionById(db: DbOrTx, id: string): Promise<ContactSubmissionRow | undefined> {
  const [row] = await db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id)).limit(1);
  return row;
}

/** Newest first. */
export async function listSubmissions(
  db: DbOrTx,
  query: { skip: number; limit: number; status?: ContactStatus | undefined },
): Promise<{ rows: ContactSubmissionRow[]; total: number }> {
  const filters: SQL[] = [];
  if (query.status !== undefined) filters.push(eq(contactSubmissions.status, query.status));
  const where = filters.length > 0 ? and(...filters) : undefined;
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(contactSubmissions)
      .where(where)
      .orderBy(desc(contactSubmissions.createdAt), desc(contactSubmissions.id))
      .offset(query.skip)
      .limit(query.limit),
    db.select({ total: count() }).from(contactSubmissions).where(where),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

export async function updateSubmissionStatus(
  db: DbOrTx,
  id: string,
  status: ContactStatus,
  now: Date,
): Promise<ContactSubmissionRow | undefined> {
  const [row] = await db
    .update(contactSubmissions)
    .set({ status, updatedAt: now })
    .where(eq(contactSubmissions.id, id))
    .returning();
  return row;
}
