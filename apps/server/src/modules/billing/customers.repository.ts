import { and, eq } from 'drizzle-orm';
import type { PaymentProviderName } from '@dataplatform/contract';
import type { DbOrTx } from '../../db/client.js';
import { billingCustomers } from '../../db/schema/index.js';

export type CustomerRow = typeof billingCustomers.$inferSelect;

export async function findCustomer(
  db: DbOrTx,
  userId: string,
  provider: PaymentProviderName,
  lock?: 'update',
): Promise<CustomerRow | undefined> {
  const query = db
    .select()
    .from(billingCustomers)
    .where(and(eq(billingCustomers.userId, userId), eq(billingCustomers.provider, provider)))
    .limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

export async function findCustomerByProviderId(db: DbOrTx, providerCustomerId: string) {
  const [row] = await db
    .select()
    .from(billingCustomers)
    .where(eq(billingCustomers.providerCustomerId, providerCustomerId))
    .limit(1);
  return row;
}

/** First writer wins; a racing second call gets the row the first one stored. */
export async function insertCustomer(db: DbOrTx, values: typeof billingCustomers.$inferInsert): Promise<CustomerRow> {
  const [inserted] = await db.insert(billingCustomers).values(values).onConflictDoNothing().returning();
  if (inserted) return inserted;
  return (await findCustomer(db, values.userId, values.provider))!;
}

export async function deleteCustomerRow(db: DbOrTx, userId: string, provider: PaymentProviderName) {
  await db
    .delete(billingCustomers)
    .where(and(eq(billingCustomers.userId, userId), eq(billingCustomers.provider, provider)));
}
