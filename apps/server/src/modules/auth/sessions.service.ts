import { createSigner, createVerifier, TokenError } from 'fast-jwt';
import { authMessages } from '@dataplatform/contract';
import type { Config } from '../../config.js';
import type { Database, DbOrTx } from '../../db/client.js';
import { addMinutes, type Clock } from '../../lib/clock.js';
import type { AuthContext } from '../../lib/auth-context.js';
import { unauthorized } from '../../lib/errors.js';
import { deriveKey } from '../../lib/keys.js';
import { isUuid } from '../../lib/uuid.js';
import {
  prepareFindLiveSession,
  prepareInsertSession,
  revokeSession,
  revokeUserSessions,
} from './sessions.repository.js';

export interface SessionMeta {
  ip: string | null;
  userAgent: string | null;
}

/**
 * Sessions are rows; the bearer token is an HS256 JWT naming one. Revoking the row kills the token
 * on its next request, whatever its `exp` says.
 */
export function createSessionService(deps: { db: Database; config: Config; clock: Clock }) {
  const { db, config, clock } = deps;
  // fast-jwt signs and verifies HS256 with node:crypto's HMAC on the calling thread: a few
  // microseconds, where a WebCrypto job would wait for a libuv pool thread behind the argon2 hashes.
  const signingKey = deriveKey(config.secretKey, 'jwt-signing').export();
  const signToken = createSigner({ key: signingKey, algorithm: 'HS256' });
  // Expiry is checked below against the injected clock; fast-jwt would read the system time.
  const verifyToken = createVerifier({
    key: signingKey,
    algorithms: ['HS256'],
    requiredClaims: ['sub', 'sid', 'exp'],
    ignoreExpiration: true,
    ignoreNotBefore: true,
  });
  const findLiveSession = prepareFindLiveSession(db);
  const insertSession = prepareInsertSession(db);

  /** Opens a session for a user who just proved who they are, and answers its bearer token. */
  async function issue(userId: string, meta: SessionMeta): Promise<string> {
    const now = clock.now();
    const expiresAt = addMinutes(now, config.accessTokenExpireMinutes);
    const sessionId = await insertSession({
      userId,
      expiresAt,
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
    });
    return signToken({
      sid: sessionId,
      sub: userId,
      iat: Math.floor(now.getTime() / 1000),
      exp: Math.floor(expiresAt.getTime() / 1000),
    });
  }

  /** Resolves a bearer token to its live session and user, or throws 401. */
  async function authenticate(token: string): Promise<AuthContext> {
    let payload: Record<string, unknown>;
    try {
      payload = verifyToken(token) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof TokenError) throw unauthorized(authMessages.invalidCredentials);
      throw error;
    }
    const { sid: sessionId, sub: subject, exp } = payload;
    if (typeof exp !== 'number' || exp * 1000 <= clock.now().getTime()) {
      throw unauthorized(authMessages.invalidCredentials);
    }
    if (typeof sessionId !== 'string' || !isUuid(sessionId)) {
      throw unauthorized(authMessages.invalidCredentials);
    }
    const found = await findLiveSession(sessionId, clock.now());
    if (!found || found.user.id !== subject || !found.user.isActive) {
      throw unauthorized(authMessages.invalidCredentials);
    }
    return { user: found.user, sessionId, roleNames: found.roleNames };
  }

  return {
    issue,
    authenticate,
    revoke: (tx: DbOrTx, sessionId: string) => revokeSession(tx, sessionId, clock.now()),
    revokeAllForUser: (tx: DbOrTx, userId: string, keepSessionId?: string) =>
      revokeUserSessions(tx, userId, clock.now(), keepSessionId),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
