import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { authMessages } from '@dataplatform/contract';
import type { Config } from '../../config.js';
import type { Database, DbOrTx } from '../../db/client.js';
import { addMinutes, type Clock } from '../../lib/clock.js';
import { unauthorized } from '../../lib/errors.js';
import { deriveKey } from '../../lib/keys.js';
import { insertSession, prepareFindLiveSession, revokeSession, revokeUserSessions } from './sessions.repository.js';
import type { UserRow } from '../users/users.repository.js';

export interface AuthContext {
  user: UserRow;
  sessionId: string;
  /** The user's role names as of this request. */
  roleNames: string[];
}

/** The caller of an admin call, as the audit log records it. */
export interface Actor extends AuthContext {
  ip: string | null;
}

export interface SessionMeta {
  ip: string | null;
  userAgent: string | null;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Sessions are rows; the bearer token is an HS256 JWT naming one. Revoking the row kills the token
 * on its next request, whatever its `exp` says.
 */
export function createSessionService(deps: { db: Database; config: Config; clock: Clock }) {
  const { db, config, clock } = deps;
  const signingKey = deriveKey(config.secretKey, 'jwt-signing');
  const findLiveSession = prepareFindLiveSession(db);

  async function issue(tx: DbOrTx, userId: string, meta: SessionMeta): Promise<string> {
    const now = clock.now();
    const expiresAt = addMinutes(now, config.accessTokenExpireMinutes);
    const session = await insertSession(tx, {
      userId,
      expiresAt,
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
    });
    return new SignJWT({ sid: session.id })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(signingKey);
  }

  /** Resolves a bearer token to its live session and user, or throws 401. */
  async function authenticate(token: string): Promise<AuthContext> {
    let sessionId: unknown;
    let subject: string | undefined;
    try {
      const { payload } = await jwtVerify(token, signingKey, {
        algorithms: ['HS256'],
        currentDate: clock.now(),
      });
      sessionId = payload.sid;
      subject = payload.sub;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) {
        throw unauthorized(authMessages.invalidCredentials);
      }
      throw error;
    }
    if (typeof sessionId !== 'string' || !UUID_PATTERN.test(sessionId)) {
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
