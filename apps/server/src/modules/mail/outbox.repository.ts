import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { outbox, type StoredMailAttachment } from '../../db/schema/index.js';

export type MailAttachment = StoredMailAttachment;

export type OutboxRow = typeof outbox.$inferSelect;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** When the mail stops being worth sending (a recovery link's expiry). */
  expiresAt?: Date;
  /** Files sent with it (a scheduled report's CSVs, its charts as inline PNGs named by `cid`). */
  attachments?: MailAttachment[];
}

/** Call inside the transaction that makes the change the mail is about. */
export async function enqueueMail(tx: DbOrTx, mail: OutgoingMail): Promise<void> {
  await tx.insert(outbox).values({
    recipient: mail.to,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html ?? null,
    expiresAt: mail.expiresAt ?? null,
    attachments: mail.attachments && mail.attachments.length > 0 ? mail.attachments : null,
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
    .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(outbox)
    .set({ nextAttemptAt: leaseUntil, claimedUntil: leaseUntil, attempts: sql`${outbox.attempts} + 1` })
    .where(inArray(outbox.id, due))
    .returning();
}

export async function markSent(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db
    .update(outbox)
    .set({ status: 'sent', sentAt: now, lastError: null, claimedUntil: null })
    .where(eq(outbox.id, id));
}

/** A mail whose content expired before it could be sent: kept for the record, never sent. */
export async function markExpired(db: DbOrTx, id: number): Promise<void> {
  await db.update(outbox).set({ status: 'expired', claimedUntil: null }).where(eq(outbox.id, id));
}

export interface OutboxBacklog {
  pending: number;
  failed: number;
  /** Age of the oldest pending mail, in seconds (0 when none). */
  oldestPendingSeconds: number;
}

/** What /readyz?details=1 shows: mail waiting, mail given up, and how long the oldest has waited. */
export async function outboxBacklog(db: DbOrTx, now: Date): Promise<OutboxBacklog> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${outbox.status} = 'pending')::int`,
      failed: sql<number>`count(*) filter (where ${outbox.status} = 'failed')::int`,
      oldest: sql<Date | string | null>`min(${outbox.createdAt}) filter (where ${outbox.status} = 'pending')`,
    })
    .from(outbox)
    .where(inArray(outbox.status, ['pending', 'failed']));
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : undefined;
  return {
    pending: row?.pending ?? 0,
    failed: row?.failed ?? 0,
    oldestPendingSeconds: oldest === undefined ? 0 : Math.max(0, Math.round((now.getTime() - oldest) / 1000)),
  };
}

export async function markFailedAttempt(db: DbOrTx, id: number, error: string, retryAt: Date | null): Promise<void> {
  await db
    .update(outbox)
    .set(
      retryAt === null
        ? { status: 'failed', lastError: error, claimedUntil: null }
        : { status: 'pending', lastError: error, nextAttemptAt: retryAt, claimedUntil: null },
    )
    .where(eq(outbox.id, id));
}

/** Pending mail that failed and waits for its next attempt (not mail being sent right now). */
const waitingAfterFailure = (now: Date) =>
  and(
    eq(outbox.status, 'pending'),
    gt(outbox.attempts, 0),
    gt(outbox.nextAttemptAt, now),
    or(isNull(outbox.claimedUntil), lte(outbox.claimedUntil, now)),
  );

/** Whether any mail waits for a retry: only then is the mail server worth checking. */
export async function hasMailWaitingForRetry(db: DbOrTx, now: Date): Promise<boolean> {
  const rows = await db.select({ id: outbox.id }).from(outbox).where(waitingAfterFailure(now)).limit(1);
  return rows.length > 0;
}

/**
 * The mail server answers again: every mail waiting for a retry becomes due now instead of at the
 * end of its backoff, `perSecond` at a time so a large backlog does not flood the server. Mail with
 * a deadline (recovery and verification links) goes first, then the oldest. The new times are in
 * the table, so every instance's worker sends the released mail, not only the one that noticed.
 * Returns how many mails were released.
 */
export async function releaseMailWaitingForRetry(db: DbOrTx, now: Date, perSecond: number): Promise<number> {
  const order = sql`row_number() over (order by ${outbox.expiresAt} is null, ${outbox.createdAt}, ${outbox.id}) - 1`;
  const queue = db
    .select({ id: outbox.id, position: order.as('position') })
    .from(outbox)
    .where(waitingAfterFailure(now))
    .as('queue');
  const released = await db
    .update(outbox)
    .set({
      nextAttemptAt: sql`${now.toISOString()}::timestamptz + ${queue.position} * (interval '1 second' / ${perSecond})`,
    })
    .from(queue)
    .where(eq(outbox.id, queue.id))
    .returning({ id: outbox.id });
  return released.length;
}
