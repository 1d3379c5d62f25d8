import { asc, eq, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { passwordRecoveryRequests } from '../../db/schema/index.js';

export interface RecoveryRequest {
  id: number;
  email: string;
  attempts: number;
  requestedAt: Date;
}

export async function insertRecoveryRequest(db: DbOrTx, email: string, now: Date): Promise<void> {
  await db.insert(passwordRecoveryRequests).values({ email, requestedAt: now, nextAttemptAt: now });
}

/**
 * Takes the oldest due request off the queue. Run it inside the transaction that acts on it: a
 * rollback puts it back, and `SKIP LOCKED` keeps other instances off it meanwhile.
 */
export async function takeDueRecoveryRequest(tx: DbOrTx, now: Date): Promise<RecoveryRequest | undefined> {
  const oldestDue = tx
    .select({ id: passwordRecoveryRequests.id })
    .from(passwordRecoveryRequests)
    .where(lte(passwordRecoveryRequests.nextAttemptAt, now))
    .orderBy(asc(passwordRecoveryRequests.id))
    .limit(1)
    .for('update', { skipLocked: true });
  const [taken] = await tx
    .delete(passwordRecoveryRequests)
    .where(eq(passwordRecoveryRequests.id, sql`(${oldestDue})`))
    .returning({
      id: passwordRecoveryRequests.id,
      email: passwordRecoveryRequests.email,
      attempts: passwordRecoveryRequests.attempts,
      requestedAt: passwordRecoveryRequests.requestedAt,
    });
  return taken;
}

/** After a failed attempt: try again at `retryAt`, or give up (delete) when it is null. */
export async function markRecoveryRequestFailed(
  db: DbOrTx,
  id: number,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  if (retryAt === null) {
    await db.delete(passwordRecoveryRequests).where(eq(passwordRecoveryRequests.id, id));
    return;
  }
  await db
    .update(passwordRecoveryRequests)
    .set({ attempts: sql`${passwordRecoveryRequests.attempts} + 1`, nextAttemptAt: retryAt, lastError: error })
    .where(eq(passwordRecoveryRequests.id, id));
}
