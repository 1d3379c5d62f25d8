import type { DbOrTx } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { updateUser } from '../users/users.repository.js';
import { invalidateUserResetTokens } from './reset-tokens.repository.js';
import type { SessionService } from './sessions.service.js';

/**
 * The one way a password changes (self-service, reset, admin): store the new hash, then revoke
 * sessions (all, or all but the caller's) and kill outstanding reset links, in the caller's
 * transaction. Hash before opening the transaction: argon2 is slow on purpose.
 */
export async function replacePassword(
  tx: DbOrTx,
  deps: { clock: Clock; sessions: SessionService },
  params: { userId: string; hashedPassword: string; keepSessionId?: string },
): Promise<void> {
  const now = deps.clock.now();
  await updateUser(tx, params.userId, {
    hashedPassword: params.hashedPassword,
    passwordChangedAt: now,
    updatedAt: now,
  });
  await deps.sessions.revokeAllForUser(tx, params.userId, params.keepSessionId);
  await invalidateUserResetTokens(tx, params.userId, now);
}
