import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { studioExtracts } from '../../db/schema/index.js';

export type ExtractRow = typeof studioExtracts.$inferSelect;
export type NewExtractRow = typeof studioExtracts.$inferInsert;

/** A tenant's extracts by name. */
export function listExtracts(db: DbOrTx, tenantId: string): Promise<ExtractRow[]> {
  return db
    .select()
    .from(studioExtracts)
    .where(eq(studioExtracts.tenantId, tenantId))
    .orderBy(asc(studioExtracts.name), asc(studioExtracts.id));
}

export async function findExtractByName(db: DbOrTx, tenantId: string, name: string): Promise<ExtractRow | undefined> {
  const [row] = await db
    .select()
    .from(studioExtracts)
    .where(and(eq(studioExtracts.tenantId, tenantId), eq(studioExtracts.name, name)))
    .limit(1);
  return row;
}

export async function insertExtract(db: DbOrTx, row: NewExtractRow): Promise<ExtractRow> {
  const [inserted] = await db.insert(studioExtracts).values(row).returning();
  return inserted!;
}

/** Deletes the tenant's extract `id`; undefined when the tenant has none by that id. */
export async function deleteExtract(db: DbOrTx, tenantId: string, id: string): Promise<ExtractRow | undefined> {
  const [row] = await db
    .delete(studioExtracts)
    .where(and(eq(studioExtracts.tenantId, tenantId), eq(studioExtracts.id, id)))
    .returning();
  return row;
}
