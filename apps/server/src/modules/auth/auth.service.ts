import {
  authMessages,
  RESET_TOKEN_TTL_MINUTES,
  userMessages,
  type LoginForm,
  type NewPassword,
} from '@dataplatform/contract';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { addMinutes, type Clock } from '../../lib/clock.js';
import { generateToken, sha256 } from '../../lib/crypto.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { passwordRecoveryMail } from '../mail/mail.templates.js';
import { enqueueMail } from '../mail/outbox.repository.js';
import { findUserByEmail, findUserById, prepareFindUserByEmail } from '../users/users.repository.js';
import { replacePassword } from './credentials.js';
import { consumeResetToken, insertResetToken, invalidateUserResetTokens } from './reset-tokens.repository.js';
import type { AuthContext, SessionMeta, SessionService } from './sessions.service.js';

export function resetLink(config: Config, token: string): string {
  return `${config.frontendHost}/reset-password?token=${encodeURIComponent(token)}`;
}

export function createAuthService(deps: {
  db: Database;
  config: Config;
  clock: Clock;
  sessions: SessionService;
  wakeMailer: () => void;
}) {
  const { db, config, clock, sessions, wakeMailer } = deps;
  const findUserForLogin = prepareFindUserByEmail(db);

  return {
    /** One message for an unknown e-mail and a wrong password, with the same work done for both. */
    async login(form: LoginForm, meta: SessionMeta): Promise<string> {
      const user = await findUserForLogin(form.username);
      if (!user) {
        await burnPasswordCheck(form.password);
        throw badRequest(authMessages.incorrectCredentials);
      }
      if (!(await verifyPassword(user.hashedPassword, form.password))) {
        throw badRequest(authMessages.incorrectCredentials);
      }
      // Told only to someone who knows the password, so it reveals nothing to a guesser.
      if (!user.isActive) throw badRequest(authMessages.inactiveUser);
      return sessions.issue(user.id, meta);
    },

    async logout(auth: AuthContext): Promise<void> {
      await sessions.revoke(db, auth.sessionId);
    },

    /**
     * Mails a single-use link to an active account; does nothing for an unknown or inactive one.
     * The caller answers the same either way.
     */
    async requestPasswordRecovery(email: string): Promise<void> {
      const user = await findUserByEmail(db, email);
      if (!user || !user.isActive) return;
      const token = generateToken();
      const now = clock.now();
      await db.transaction(async (tx) => {
        // Only the newest link works: an older mail lying around is dead.
        await invalidateUserResetTokens(tx, user.id, now);
        await insertResetToken(tx, {
          userId: user.id,
          tokenHash: sha256(token),
          expiresAt: addMinutes(now, RESET_TOKEN_TTL_MINUTES),
        });
        await enqueueMail(tx, passwordRecoveryMail(user.email, resetLink(config, token), RESET_TOKEN_TTL_MINUTES));
      });
      wakeMailer();
    },

    async resetPassword(body: NewPassword): Promise<void> {
      const hashedPassword = await hashPassword(body.new_password);
      await db.transaction(async (tx) => {
        const userId = await consumeResetToken(tx, sha256(body.token), clock.now());
        if (!userId) throw badRequest(authMessages.invalidResetToken);
        const user = await findUserById(tx, userId);
        if (!user) throw badRequest(authMessages.invalidResetToken);
        if (!user.isActive) throw badRequest(authMessages.inactiveUser);
        await replacePassword(tx, { clock, sessions }, { userId, hashedPassword });
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
