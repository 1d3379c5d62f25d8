import { bigint, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ownerId, timestamptz } from './columns.js';
import { users } from './users.js';

/**
 * A user's TOTP secret (decision 026), sealed with a key derived from SECRET_KEY and bound to the
 * user's id. `enabledAt` is null while the set-up waits for its first code; `lastTimeStep` is the
 * newest accepted time step, so a code is accepted once.
 */
export const userTwoFactor = pgTable('user_two_factor', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sealedSecret: text('sealed_secret').notNull(),
  enabledAt: timestamptz('enabled_at'),
  lastTimeStep: bigint('last_time_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Single-use recovery codes, stored as keyed digests (HMAC-SHA-256): a database leak reveals none. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId('user_id', () => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamptz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('two_factor_recovery_codes_user_id_idx').on(t.userId)],
);
