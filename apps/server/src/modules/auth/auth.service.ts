import {
  authMessages,
  RESET_TOKEN_TTL_MINUTES,
  userMessages,
  type LoginForm,
  type NewPassword,
  type TwoFactorChallenge,
} from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database, DbOrTx } from '../../db/client.js';
import { addMinutes, type Clock } from '../../lib/clock.js';
import { generateToken, sha256 } from '../../lib/crypto.js';
import { badRequest, describeError, notFound, tooManyRequests } from '../../lib/errors.js';
import { assertUncommonPassword } from '../../lib/common-passwords.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { nextAttemptAt } from '../../lib/retry.js';
import { enqueueMail, passwordRecoveryMail, ssoRecoveryMail } from '../mail/mail.service.js';
import { findUserByEmail, findUserById, prepareFindLoginCredentials } from '../users/users.service.js';
import type { LoginThrottle } from './login-throttle.js';
import {
  insertRecoveryRequest,
  markRecoveryRequestFailed,
  takeDueRecoveryRequest,
  type RecoveryRequest,
} from './recovery-requests.repository.js';
import { consumeResetToken, insertResetToken, invalidateUserResetTokens } from './reset-tokens.repository.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { UsersService } from '../users/users.service.js';
import type { SessionMeta, SessionService } from '../sessions/sessions.service.js';
import type { TwoFactorService } from '../two-factor/two-factor.service.js';

// Two-factor sign-in throttles failed codes the way sign-in throttles failed passwords.
export type { LoginThrottle } from './login-throttle.js';

export function resetLink(config: Config, token: string): string {
  return `${config.frontendHost}/reset-password?token=${encodeURIComponent(token)}`;
}

export function createAuthService(deps: {
  db: Database;
  config: Config;
  clock: Clock;
  sessions: SessionService;
  wakeMailer: () => void;
  log: FastifyBaseLogger;
  /** Failed sign-ins per account, in memory or in Redis (decisions 004 and 049). */
  loginThrottle: LoginThrottle;
  /** The users service's one way to change a password (it revokes sessions and reset links too). */
  replacePassword: UsersService['replacePassword'];
  /** With two-factor sign-in on, the password step answers a challenge instead of a session (decision 026). */
  twoFactor: Pick<TwoFactorService, 'challenge'>;
  /** Whether the account signs in with single sign-on and may not recover a password (SSO-6). */
  recoveryClosed: (tx: DbOrTx, userId: string) => Promise<boolean>;
}) {
  const { db, config, clock, sessions, wakeMailer, log, loginThrottle, replacePassword, twoFactor, recoveryClosed } =
    deps;
  const findLoginCredentials = prepareFindLoginCredentials(db);

  /** For an active account: a fresh single-use link (its hash stored) and the mail carrying it. */
  async function mailRecoveryLink(tx: DbOrTx, email: string, now: Date): Promise<void> {
    const user = await findUserByEmail(tx, email);
    if (!user || !user.isActive) return;
    // SSO-6: no link for an account single sign-on made; the mail says how to sign in instead.
    if (await recoveryClosed(tx, user.id)) {
      await enqueueMail(tx, ssoRecoveryMail(user.email, `${config.frontendHost}/login`));
      return;
    }
    const token = generateToken();
    // Only the newest link works: an older mail lying around is dead.
    await invalidateUserResetTokens(tx, user.id, now);
    const expiresAt = addMinutes(now, RESET_TOKEN_TTL_MINUTES);
    await insertResetToken(tx, { userId: user.id, tokenHash: sha256(token), expiresAt });
    // Sent late, the link would be dead: the mail expires with it.
    await enqueueMail(tx, {
      ...passwordRecoveryMail(user.email, resetLink(config, token), RESET_TOKEN_TTL_MINUTES),
      expiresAt,
    });
  }

  return {
    /** One message for an unknown e-mail and a wrong password, with the same work done for both. */
    async login(form: LoginForm, meta: SessionMeta): Promise<{ accessToken: string } | TwoFactorChallenge> {
      // Known or not, an address is throttled the same way, so a 429 tells nothing about it.
      const ip = meta.ip ?? '';
      const wait = await loginThrottle.begin(form.username, ip);
      if (wait > 0) throw tooManyRequests(authMessages.tooManyRequests, wait);
      const user = await findLoginCredentials(form.username);
      if (!user) {
        await burnPasswordCheck(form.password);
        throw badRequest(authMessages.incorrectCredentials, 'incorrect_credentials');
      }
      if (!(await verifyPassword(user.hashedPassword, form.password))) {
        throw badRequest(authMessages.incorrectCredentials, 'incorrect_credentials');
      }
      await loginThrottle.succeeded(form.username, ip);
      // Told only to someone who knows the password, so it reveals nothing to a guesser.
      if (!user.isActive) throw badRequest(authMessages.inactiveUser, 'inactive_user');
      // No session yet for an account with two-factor sign-in: the code step opens it.
      if (user.twoFactorEnabled) return twoFactor.challenge(user);
      return { accessToken: await sessions.issue(user.id, meta) };
    },

    async logout(auth: AuthContext): Promise<void> {
      await sessions.revoke(db, auth.sessionId);
    },

    /**
     * Queues the request and wakes the mail worker, which mails a link to an active account and
     * does nothing for an unknown or inactive one. The caller answers the same either way, and as
     * this does the same single insert for every address, so does its timing.
     */
    async requestPasswordRecovery(email: string): Promise<void> {
      await insertRecoveryRequest(db, email, clock.now());
      wakeMailer();
    },

    /**
     * Run by the mail worker before it sends: each queued request in a transaction of its own, so
     * one that fails is retried later (with the outbox's backoff, then dropped) without holding up
     * the others. Answers how many requests were handled.
     */
    async resolveRecoveryRequests(): Promise<number> {
      let handled = 0;
      for (;;) {
        const now = clock.now();
        let taken: RecoveryRequest | undefined;
        try {
          await db.transaction(async (tx) => {
            taken = await takeDueRecoveryRequest(tx, now);
            if (taken) await mailRecoveryLink(tx, taken.email, now);
          });
        } catch (error) {
          // Failing before a request was taken means the database itself is failing: the worker's next pass retries.
          if (!taken) throw error;
          const attempts = taken.attempts + 1;
          const retryAt = nextAttemptAt(config.outbox, attempts, clock.now(), taken.requestedAt);
          const finalAttempt = retryAt === null;
          const message = describeError(error);
          log.warn(
            { recoveryRequestId: taken.id, attempts, finalAttempt, err: message },
            'password recovery request failed',
          );
          await markRecoveryRequestFailed(db, taken.id, message.slice(0, 1000), retryAt);
          continue;
        }
        if (!taken) return handled;
        handled += 1;
      }
    },

    async resetPassword(body: NewPassword): Promise<void> {
      await assertUncommonPassword(body.new_password, 'new_password');
      const hashedPassword = await hashPassword(body.new_password);
      await db.transaction(async (tx) => {
        const userId = await consumeResetToken(tx, sha256(body.token), clock.now());
        if (!userId) throw badRequest(authMessages.invalidResetToken, 'invalid_reset_token');
        const user = await findUserById(tx, userId);
        if (!user) throw badRequest(authMessages.invalidResetToken, 'invalid_reset_token');
        if (!user.isActive) throw badRequest(authMessages.inactiveUser, 'inactive_user');
        await replacePassword(tx, { userId, hashedPassword });
      });
    },

    /**
     * What the recovery mail for `email` looks like, for superusers checking the template. The
     * link in it carries a token that was never stored, so the preview cannot reset anything.
     */
    async previewRecoveryMail(email: string): Promise<{ subject: string; html: string }> {
      const user = await findUserByEmail(db, email.trim().toLowerCase());
      if (!user) throw notFound(userMessages.notFound);
      const mail = passwordRecoveryMail(user.email, resetLink(config, generateToken()), RESET_TOKEN_TTL_MINUTES);
      return { subject: mail.subject, html: mail.html ?? mail.text };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
