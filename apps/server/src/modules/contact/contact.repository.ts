import { desc, eq } from 'drizzle-orm';
import type { ContactStatus } from '@dataplatform/contract';
import type { DbOrTx } from '../../db/client.js';
import { paginate, type Page } from '../../lib/pagination.js';
import type { ColumnMatch } from '../../lib/row-counts.js';
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
): Promise<Page<ContactSubmissionRow>> {
  const match: ColumnMatch[] = query.status === undefined ? [] : [[contactSubmissions.status, query.status]];
  return paginate(
    db,
    contactSubmissions,
    { match, orderBy: [desc(contactSubmissions.createdAt), desc(contactSubmissions.id)] },
    query,
  );
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
