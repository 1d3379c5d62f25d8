import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // Stored lower-cased (the check keeps it so): uniqueness is case-insensitive.
    email: text('email').notNull().unique(),
    hashedPassword: text('hashed_password').notNull(),
    fullName: text('full_name'),
    isActive: boolean('is_active').notNull().default(true),
    isSuperuser: boolean('is_superuser').notNull().default(false),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
    // The admin list's paging key: a page (searched or not) is read in this order without a sort.
    index('users_created_at_id_idx').on(t.createdAt, t.id),
  ],
);

/** One row per login; the JWT carries its id so a session can be revoked before the token expires. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/** Reset tokens are stored as SHA-256 digests: a database leak does not hand out live links. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_reset_tokens_user_id_idx').on(t.userId)],
);

/**
 * A recovery request waits here until the mail worker looks its address up. Answering the request
 * costs the same single insert for every address, so its timing cannot tell which accounts exist.
 * A request whose handling fails is retried with backoff, like a mail, then dropped.
 */
export const passwordRecoveryRequests = pgTable(
  'password_recovery_requests',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
  },
  (t) => [index('password_recovery_requests_due_idx').on(t.nextAttemptAt)],
);
