import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { sandboxClocks, sandboxPaymentIntents, sandboxPaymentMethods } from '../../../db/schema/index.js';

export type SandboxPaymentMethodRow = typeof sandboxPaymentMethods.$inferSelect;
export type SandboxPaymentIntentRow = typeof sandboxPaymentIntents.$inferSelect;

export async function insertSandboxPaymentMethod(
  db: DbOrTx,
  values: typeof sandboxPaymentMethods.$inferInsert,
): Promise<SandboxPaymentMethodRow> {
  const [row] = await db.insert(sandboxPaymentMethods).values(values).returning();
  return row!;
}

export async function findSandboxPaymentMethod(db: DbOrTx, id: string): Promise<SandboxPaymentMethodRow | undefined> {
  const [row] = await db.select().from(sandboxPaymentMethods).where(eq(sandboxPaymentMethods.id, id)).limit(1);
  return row;
}

export async function setSandboxPaymentMethodCustomer(db: DbOrTx, id: string, customerId: string | null) {
  await db.update(sandboxPaymentMethods).set({ customerId }).where(eq(sandboxPaymentMethods.id, id));
}

export async function detachSandboxCustomerPaymentMethods(db: DbOrTx, customerId: string) {
  await db
    .update(sandboxPaymentMethods)
    .set({ customerId: null })
    .where(eq(sandboxPaymentMethods.customerId, customerId));
}

/** Inserts unless the idempotency key was used before; answers the intent either way. */
export async function insertSandboxPaymentIntent(
  db: DbOrTx,
  values: typeof sandboxPaymentIntents.$inferInsert,
): Promise<{ row: SandboxPaymentIntentRow; created: boolean }> {
  const [inserted] = await db
    .insert(sandboxPaymentIntents)
    .values(values)
    .onConflictDoNothing({ target: sandboxPaymentIntents.idempotencyKey })
    .returning();
  if (inserted) return { row: inserted, created: true };
  const [existing] = await db
    .select()
    .from(sandboxPaymentIntents)
    .where(eq(sandboxPaymentIntents.idempotencyKey, values.idempotencyKey!))
    .limit(1);
  return { row: existing!, created: false };
}

export async function findSandboxPaymentIntent(db: DbOrTx, id: string): Promise<SandboxPaymentIntentRow | undefined> {
  const [row] = await db.select().from(sandboxPaymentIntents).where(eq(sandboxPaymentIntents.id, id)).limit(1);
  return row;
}

export async function updateSandboxPaymentIntent(
  db: DbOrTx,
  id: string,
  values: Partial<Pick<SandboxPaymentIntentRow, 'status' | 'errorMessage' | 'paymentMethodId'>>,
): Promise<void> {
  await db.update(sandboxPaymentIntents).set(values).where(eq(sandboxPaymentIntents.id, id));
}

/**
 * Moves an intent awaiting a payment method to `processing` and answers it; undefined when it is in
 * any other state. Only one of any number of concurrent confirmations gets the intent.
 */
export async function claimSandboxPaymentIntent(db: DbOrTx, id: string): Promise<SandboxPaymentIntentRow | undefined> {
  const [claimed] = await db
    .update(sandboxPaymentIntents)
    .set({ status: 'processing' })
    .where(and(eq(sandboxPaymentIntents.id, id), eq(sandboxPaymentIntents.status, 'requires_payment_method')))
    .returning();
  return claimed;
}

/** How far the customer's sandbox billing time runs ahead of the real clock, in seconds (0 if never moved). */
export async function readClockOffset(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ offsetSeconds: sandboxClocks.offsetSeconds })
    .from(sandboxClocks)
    .where(eq(sandboxClocks.userId, userId))
    .limit(1);
  return row?.offsetSeconds ?? 0;
}

/** Moves the customer's clock `seconds` further ahead, atomically; answers the new offset. */
export async function advanceClockOffset(db: DbOrTx, userId: string, seconds: number, now: Date): Promise<number> {
  const [row] = await db
    .insert(sandboxClocks)
    .values({ userId, offsetSeconds: seconds, updatedAt: now })
    .onConflictDoUpdate({
      target: sandboxClocks.userId,
      set: { offsetSeconds: sql`${sandboxClocks.offsetSeconds} + ${seconds}`, updatedAt: now },
    })
    .returning({ offsetSeconds: sandboxClocks.offsetSeconds });
  return row!.offsetSeconds;
}
