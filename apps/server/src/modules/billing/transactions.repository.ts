import { count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { transactions } from '../../db/schema/index.js';

export type TransactionRow = typeof transactions.$inferSelect;

export async function insertTransaction(db: DbOrTx, values: typeof transactions.$inferInsert): Promise<TransactionRow> {
  const [row] = await db.insert(transactions).values(values).returning();
  return row!;
}

/** Newest first. */
export async function listTransactions(
  db: DbOrTx,
  userId: string,
  page: { skip: number; limit: number },
): Promise<{ rows: TransactionRow[]; total: number }> {
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(transactions)
      .where(eq(transactions.userId, userId))
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .offset(page.skip)
      .limit(page.limit),
    db.select({ total: count() }).from(transactions).where(eq(transactions.userId, userId)),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

export async function findTransactionByProviderPaymentId(
  db: DbOrTx,
  providerPaymentId: string,
  lock?: 'update',
): Promise<TransactionRow | undefined> {
  const query = db.select().from(transactions).where(eq(transactions.providerPaymentId, providerPaymentId)).limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

export async function updateTransaction(
  db: DbOrTx,
  id: string,
  values: Partial<Pick<TransactionRow, 'status' | 'errorMessage' | 'providerUpdatedAt' | 'subscriptionId'>>,
): Promise<void> {
  await db.update(transactions).set(values).where(eq(transactions.id, id));
}
