import { createSigner, createVerifier, TokenError } from 'fast-jwt';
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  authMessages,
  sessionMessages,
  userMessages,
  type AccountSession,
  type AccountSessions,
} from '@dataplatform/contract';
import type { DbOrTx } from '../../db/client.js';
import { addMinutes } from '../../lib/clock.js';
import type { Actor, AuthContext } from '../../lib/auth-context.js';
import { sha256 } from '../../lib/crypto.js';
import { notFound, unauthorized } from '../../lib/errors.js';
import { deriveKey } from '../../lib/keys.js';
import { describeUserAgent } from '../../lib/user-agent.js';
import { isUuid } from '../../lib/uuid.js';
import { enqueueMail, newSignInMail, type MailingServiceDeps } from '../mail/mail.service.js';
import { findUserById } from '../users/users.service.js';
import {
  listLiveSessions,
  prepareFindLiveSession,
  prepareOpenSession,
  prepareTouchSession,
  rememberDevice,
  revokeOwnSession,
  revokeSession,
  revokeUserSessions,
  type SessionRow,
} from './sessions.repository.js';

// What other modules use of sessions besides the service: the credentials housekeeping's purge.
export { deleteDeadSessions } from './sessions.repository.js';

/**
 * How stale `last_seen_at` may get (decision 027): a request writes it only when it is older than
 * this, so a session costs at most one write per interval however busy it is, and none at all on
 * most requests (the read that authenticates each request already carries the column).
 */
export const LAST_SEEN_INTERVAL_MINUTES = 5;

/** The identity of a device for the new sign-in mail: digest of the address and the (stored) user agent. */
export function knownDeviceHash(ip: string | null, userAgent: string | null): string {
  return sha256(`${ip ?? ''}\n${userAgent ?? ''}`);
}

function toAccountSession(row: SessionRow, currentSessionId: string): AccountSession {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
    ip: row.ip,
    user_agent: row.userAgent,
    device: describeUserAgent(row.userAgent),
    current: row.id === currentSessionId,
  };
}

/** What the audit log keeps of a session: when and where it began, never its token. */
function sessionSnapshot(row: SessionRow) {
  return { created_at: row.createdAt.toISOString(), ip: row.ip, device: describeUserAgent(row.userAgent) };
}

export interface SessionMeta {
  ip: string | null;
  userAgent: string | null;
}

/**
 * Sessions are rows; the bearer token is an HS256 JWT naming one. Revoking the row kills the token
 * on its next request, whatever its `exp` says.
 */
export function createSessionService(deps: MailingServiceDeps) {
  const { db, config, clock, audit, wakeMailer } = deps;
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
  const openSession = prepareOpenSession(db);
  const touchSession = prepareTouchSession(db);

  /**
   * Remembers a device the session's insert found new (the pair of address and user agent); the
   * first sign-in from such a device mails the owner (not the account's very first sign-in).
   */
  async function rememberNewDevice(userId: string, deviceHash: string, ip: string | null, userAgent: string | null) {
    const now = clock.now();
    const isNew = await db.transaction(async (tx) => {
      if (!(await rememberDevice(tx, userId, deviceHash, now))) return false;
      const user = await findUserById(tx, userId);
      if (!user) return false;
      await enqueueMail(
        tx,
        newSignInMail(user.email, {
          at: now,
          ip,
          device: describeUserAgent(userAgent),
          securityLink: `${config.frontendHost}/settings/security`,
        }),
      );
      return true;
    });
    if (isNew) wakeMailer();
  }

  /**
   * Opens a session for a user who just proved who they are (password, second factor or single
   * sign-on: every sign-in comes through here), and answers its bearer token.
   */
  async function issue(userId: string, meta: SessionMeta): Promise<string> {
    const now = clock.now();
    const expiresAt = addMinutes(now, config.accessTokenExpireMinutes);
    const userAgent = meta.userAgent?.slice(0, 512) ?? null;
    const deviceHash = knownDeviceHash(meta.ip, userAgent);
    const session = await openSession({ userId, expiresAt, lastSeenAt: now, ip: meta.ip, userAgent, deviceHash });
    if (!session.knownDevice) await rememberNewDevice(userId, deviceHash, meta.ip, userAgent);
    return signToken({
      sid: session.id,
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
    const now = clock.now();
    const found = await findLiveSession(sessionId, now);
    if (!found || found.user.id !== subject || !found.user.isActive) {
      throw unauthorized(authMessages.invalidCredentials);
    }
    // At most one write per session per interval (decision 027); every other request only reads.
    const staleBefore = addMinutes(now, -LAST_SEEN_INTERVAL_MINUTES);
    if (found.lastSeenAt <= staleBefore) await touchSession(sessionId, now, staleBefore);
    return { user: found.user, sessionId, roleNames: found.roleNames };
  }

  return {
    issue,
    authenticate,
    revoke: (tx: DbOrTx, sessionId: string) => revokeSession(tx, sessionId, clock.now()),
    /** Ends every live session of the user (but `keepSessionId`) in `tx`; answers how many ended. */
    revokeAllForUser: (tx: DbOrTx, userId: string, keepSessionId?: string): Promise<number> =>
      revokeUserSessions(tx, userId, clock.now(), keepSessionId),

    /** The caller's sessions that can still sign in, theirs marked `current`. */
    async listOwn(auth: AuthContext): Promise<AccountSessions> {
      const rows = await listLiveSessions(db, auth.user.id, clock.now());
      return { data: rows.map((row) => toAccountSession(row, auth.sessionId)) };
    },

    /**
     * Signs out one of the caller's sessions (their own current one included: that is a logout).
     * Someone else's session id answers 404 exactly as an unknown one does.
     */
    async revokeOwn(actor: Actor, sessionId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const revoked = await revokeOwnSession(tx, actor.user.id, sessionId, clock.now());
        if (!revoked) throw notFound(sessionMessages.notFound);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.sessionRevoke,
          targetType: AUDIT_TARGET_TYPES.session,
          targetId: revoked.id,
          before: sessionSnapshot(revoked),
          after: null,
        });
      });
    },

    /** Signs out every session of the caller but the one asking; answers how many ended. */
    async revokeOthers(actor: Actor): Promise<number> {
      return db.transaction(async (tx) => {
        const revoked = await revokeUserSessions(tx, actor.user.id, clock.now(), actor.sessionId);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.sessionsRevokeOthers,
          targetType: AUDIT_TARGET_TYPES.user,
          targetId: actor.user.id,
          before: null,
          after: { revoked },
        });
        return revoked;
      });
    },

    /** A superuser signs a user out everywhere (their own call included); answers how many ended. */
    async revokeAllAsAdmin(actor: Actor, userId: string): Promise<number> {
      return db.transaction(async (tx) => {
        if (!(await findUserById(tx, userId))) throw notFound(userMessages.notFound);
        const revoked = await revokeUserSessions(tx, userId, clock.now());
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.sessionsRevokeAll,
          targetType: AUDIT_TARGET_TYPES.user,
          targetId: userId,
          before: null,
          after: { revoked },
        });
        return revoked;
      });
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
