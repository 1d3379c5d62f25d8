import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.js';

/** A file sent with a mail; `cid` makes it an inline image the HTML names as `cid:…`. */
export interface StoredMailAttachment {
  filename: string;
  contentType: string;
  /** The bytes, base64. */
  content: string;
  cid?: string;
}

/**
 * Mail waiting to be sent. A row is written in the same transaction as the change that causes it,
 * so a mail is never lost (SMTP down) nor sent for a change that rolled back.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    /** `expired`: a mail whose content (a recovery link) expired before it could be sent. */
    status: text('status', { enum: ['pending', 'sent', 'failed', 'expired'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    /**
     * Set while an instance is sending the row (its lease): a backlog released when the mail server
     * returns must not hand a row in flight to a second sender.
     */
    claimedUntil: timestamptz('claimed_until'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamptz('sent_at'),
    /** After this the mail is pointless (its link no longer works): it is dropped, not sent late. */
    expiresAt: timestamptz('expires_at'),
    /** Files sent with the mail (a scheduled report's CSVs and inline chart PNGs), base64. */
    attachments: jsonb('attachments').$type<StoredMailAttachment[]>(),
  },
  (t) => [index('outbox_pending_idx').on(t.status, t.nextAttemptAt)],
);
