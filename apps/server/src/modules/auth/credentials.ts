import type { DbOrTx } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { invalidateUserResetTokens } from './reset-tokens.repository.js';
import type { SessionService } from '../sessions/sessions.service.js';

/**
 * Auth's part of a password change: what was issued under the old password stops working. The
 * users service stores the new hash and calls `revokeAll` in the same transaction.
 */
export function createCredentials(deps: { clock: Clock; sessions: SessionService }) {
  const { clock, sessions } = deps;
  return {
    /** Revokes the user's sessions (all, or all but `keepSessionId`) and kills outstanding reset links. */
    async revokeAll(tx: DbOrTx, userId: string, keepSessionId?: string): Promise<void> {
      await sessions.revokeAllForUser(tx, userId, keepSessionId);
      await invalidateUserResetTokens(tx, userId, clock.now());
    },
  };
}
