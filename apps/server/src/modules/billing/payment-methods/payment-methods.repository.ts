import { and, desc, eq, ne } from 'drizzle-orm';
import type { PaymentProviderName } from '@dataplatform/contract';
import type { DbOrTx } from '../../../db/client.js';
import { paymentMethods } from '../../../db/schema/index.js';

export type PaymentMethodRow = typeof paymentMethods.$inferSelect;

const ownedBy = (userId: string, provider: PaymentProviderName) =>
  and(eq(paymentMethods.userId, userId), eq(paymentMethods.provider, provider));

/** Default first, then newest. */
export async function listPaymentMethods(
  db: DbOrTx,
  userId: string,
  provider: PaymentProviderName,
): Promise<PaymentMethodRow[]> {
  return db
    .select()
    .from(paymentMethods)
    .where(ownedBy(userId, provider))
    .orderBy(desc(paymentMethods.isDefault), desc(paymentMethods.createdAt), desc(paymentMethods.id));
}

export async function findOwnPaymentMethod(
  db: DbOrTx,
  userId: string,
  provider: PaymentProviderName,
  idOrProviderId: string,
  byProviderId: boolean,
): Promise<PaymentMethodRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentMethods)
    .where(
      and(
        ownedBy(userId, provider),
        byProviderId
          ? eq(paymentMethods.providerPaymentMethodId, idOrProviderId)
          : eq(paymentMethods.id, idOrProviderId),
      ),
    )
    .limit(1);
  return row;
}

export async function findPaymentMethodByProviderId(
  db: DbOrTx,
  providerPaymentMethodId: string,
  lock?: 'update',
): Promise<PaymentMethodRow | undefined> {
  const query = db
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.providerPaymentMethodId, providerPaymentMethodId))
    .limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

export async function findDefaultPaymentMethod(
  db: DbOrTx,
  userId: string,
  provider: PaymentProviderName,
): Promise<PaymentMethodRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentMethods)
    .where(and(ownedBy(userId, provider), eq(paymentMethods.isDefault, true)))
    .limit(1);
  return row;
}

export async function insertPaymentMethod(
  db: DbOrTx,
  values: typeof paymentMethods.$inferInsert,
): Promise<PaymentMethodRow> {
  const [row] = await db.insert(paymentMethods).values(values).returning();
  return row!;
}

/** Makes one card the default; the others lose the flag first (a partial unique index allows one). */
export async function makeDefault(db: DbOrTx, row: Pick<PaymentMethodRow, 'id' | 'userId' | 'provider'>) {
  await db
    .update(paymentMethods)
    .set({ isDefault: false })
    .where(and(ownedBy(row.userId, row.provider), ne(paymentMethods.id, row.id), eq(paymentMethods.isDefault, true)));
  const [updated] = await db
    .update(paymentMethods)
    .set({ isDefault: true })
    .where(eq(paymentMethods.id, row.id))
    .returning();
  return updated!;
}

/** After the default card goes, the newest remaining one takes its place. */
export async function promoteNewest(db: DbOrTx, userId: string, provider: PaymentProviderName) {
  const [newest] = await listPaymentMethods(db, userId, provider);
  if (newest && !newest.isDefault) return makeDefault(db, newest);
  return newest;
}

export async function deletePaymentMethod(db: DbOrTx, id: string): Promise<PaymentMethodRow | undefined> {
  const [row] = await db.delete(paymentMethods).where(eq(paymentMethods.id, id)).returning();
  return row;
}

export async function updatePaymentMethodCard(
  db: DbOrTx,
  id: string,
  values: Pick<PaymentMethodRow, 'cardType' | 'lastFour' | 'expiryMonth' | 'expiryYear' | 'providerUpdatedAt'>,
) {
  await db.update(paymentMethods).set(values).where(eq(paymentMethods.id, id));
}
