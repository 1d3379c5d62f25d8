import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ownerId, timestamptz, updatedAt } from './columns.js';

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
    passwordChangedAt: timestamptz('password_changed_at').notNull().defaultNow(),
    // Null until the owner follows the verification link (issue 16). Accounts a superuser creates,
    // the first superuser and single sign-on accounts are verified when they are made.
    emailVerifiedAt: timestamptz('email_verified_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
    // The admin list's paging key: a page (searched or not) is read in this order without a sort.
    index('users_created_at_id_idx').on(t.createdAt, t.id),
    // The admin search (`ILIKE '%q%'` on either column) reads its matches, and counts them, through
    // these trigram indexes instead of the whole table (decision 052; pg_trgm, migration 0009).
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('users_full_name_trgm_idx').using('gin', t.fullName.op('gin_trgm_ops')),
  ],
);

/** One row per login; the JWT carries its id so a session can be revoked before the token expires. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId('user_id', () => users.id),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    // When a request last used the session: written at login, then at most once per
    // SESSION_LAST_SEEN_INTERVAL_MINUTES (decision 027), never on every request.
    lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/**
 * The (address, user agent) pairs an account has signed in from, as a SHA-256 digest of the two: a
 * sign-in from a pair not in here mails the owner (decision 027). Outlives the sessions themselves,
 * which housekeeping deletes once dead.
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: ownerId('user_id', () => users.id),
    deviceHash: text('device_hash').notNull(),
    firstSeenAt: timestamptz('first_seen_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceHash] })],
);

/** Reset tokens are stored as SHA-256 digests: a database leak does not hand out live links. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId('user_id', () => users.id),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [index('password_reset_tokens_user_id_idx').on(t.userId)],
);

/**
 * Links that verify an address (decision 029), stored as SHA-256 digests like reset tokens. `email`
 * is the address the link proves: the account's own (`verify`) or the new one it asked to move to
 * (`change`); only the newest live link of an account works.
 */
export const emailVerificationTokens = pgTable(
  'email_verification_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId('user_id', () => users.id),
    purpose: text('purpose', { enum: ['verify', 'change'] }).notNull(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [
    index('email_verification_tokens_user_id_idx').on(t.userId),
    check('email_verification_tokens_purpose_check', sql`${t.purpose} in ('verify', 'change')`),
  ],
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
    requestedAt: timestamptz('requested_at').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
  },
  (t) => [index('password_recovery_requests_due_idx').on(t.nextAttemptAt)],
);
