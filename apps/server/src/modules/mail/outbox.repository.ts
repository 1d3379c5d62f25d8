import { and, asc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { outbox } from '../../db/schema/index.js';

export type OutboxRow = typeof outbox.$inferSelect;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Call inside the transaction that makes the change the mail is about. */
export async function enqueueMail(tx: DbOrTx, mail: OutgoingMail): Promise<void> {
  await tx.insert(outbox).values({
    recipient: mail.to,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html ?? null,
  });
}

/**
 * Claims up to `limit` due rows by pushing their next attempt past `leaseUntil`. SKIP LOCKED lets
 * several server instances drain the same outbox without sending a row twice. A row never tried is
 * due at once: its `next_attempt_at` comes from the database's clock, which need not agree with the
 * server's, and a mail must not wait for the two to line up.
 */
export async function claimDueMails(db: DbOrTx, now: Date, leaseUntil: Date, limit: number): Promise<OutboxRow[]> {
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.status, 'pending'), or(eq(outbox.attempts, 0), lte(outbox.nextAttemptAt, now))))
    .orderBy(asc(outbox.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(outbox)
    .set({ nextAttemptAt: leaseUntil, attempts: sql`${outbox.attempts} + 1` })
    .where(inArray(outbox.id, due))
    .returning();
}

export async function markSent(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db.update(outbox).set({ status: 'sent', sentAt: now, lastError: null }).where(eq(outbox.id, id));
}

export async function markFailedAttempt(db: DbOrTx, id: number, error: string, retryAt: Date | null): Promise<void> {
  await db
    .update(outbox)
    .set(
      retryAt === null
        ? { status: 'failed', lastError: error }
        : { status: 'pending', lastError: error, nextAttemptAt: retryAt },
    )
    .where(eq(outbox.id, id));
}
