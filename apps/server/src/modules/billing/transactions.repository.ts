import type { PaginationQuery } from '@dataplatform/contract';
import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { paginate, type Page } from '../../lib/pagination.js';
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
  page: PaginationQuery,
): Promise<Page<TransactionRow>> {
  return paginate(
    db,
    transactions,
    { match: [[transactions.userId, userId]], orderBy: [desc(transactions.createdAt), desc(transactions.id)] },
    page,
  );
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
