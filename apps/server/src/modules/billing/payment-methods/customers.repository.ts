import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { PaymentProviderName } from '@dataplatform/contract';
import type { DbOrTx } from '../../../db/client.js';
import { billingCustomers } from '../../../db/schema/index.js';

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

/** First writer wins; a racing second call gets the row the first one stored. */
export async function insertCustomer(db: DbOrTx, values: typeof billingCustomers.$inferInsert): Promise<CustomerRow> {
  const [inserted] = await db.insert(billingCustomers).values(values).onConflictDoNothing().returning();
  if (inserted) return inserted;
  return (await findCustomer(db, values.userId, values.provider))!;
}

/**
 * Takes the customer's charge lease until `until` if no live one is held; false when another charge
 * of this customer is in flight. One UPDATE, so two instances cannot both win.
 */
export async function claimChargeLease(
  db: DbOrTx,
  userId: string,
  provider: PaymentProviderName,
  now: Date,
  until: Date,
): Promise<boolean> {
  const claimed = await db
    .update(billingCustomers)
    .set({ chargeLeaseUntil: until })
    .where(
      and(
        eq(billingCustomers.userId, userId),
        eq(billingCustomers.provider, provider),
        or(isNull(billingCustomers.chargeLeaseUntil), lte(billingCustomers.chargeLeaseUntil, now)),
      ),
    )
    .returning({ userId: billingCustomers.userId });
  return claimed.length > 0;
}

export async function releaseChargeLease(db: DbOrTx, userId: string, provider: PaymentProviderName): Promise<void> {
  await db
    .update(billingCustomers)
    .set({ chargeLeaseUntil: null })
    .where(and(eq(billingCustomers.userId, userId), eq(billingCustomers.provider, provider)));
}

/** Forgets a customer the provider deleted; answers the row it removed. */
export async function deleteCustomerByProviderId(
  db: DbOrTx,
  providerCustomerId: string,
): Promise<CustomerRow | undefined> {
  const [row] = await db
    .delete(billingCustomers)
    .where(eq(billingCustomers.providerCustomerId, providerCustomerId))
    .returning();
  return row;
}
