import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  EMAIL_VERIFICATION_TTL_HOURS,
  emailVerificationMessages,
  userMessages,
  type EmailVerificationStatus,
  type EmailVerified,
} from '@dataplatform/contract';
import type { Config } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import type { Actor, AuthContext, SessionUser } from '../../lib/auth-context.js';
import { addMinutes } from '../../lib/clock.js';
import { generateToken, sha256 } from '../../lib/crypto.js';
import { badRequest, conflict, isUniqueViolation } from '../../lib/errors.js';
import {
  emailChangedMail,
  emailChangeVerificationMail,
  emailVerificationMail,
  enqueueMail,
  type MailingServiceDeps,
} from '../mail/mail.service.js';
import {
  consumeVerificationToken,
  findPendingEmail,
  invalidateVerificationTokens,
  replaceVerificationToken,
  type VerificationPurpose,
} from './email-verification.repository.js';
import { findUserByEmail, findUserById, toUserAuditSnapshot, updateUser } from '../users/users.service.js';

// What other modules use of e-mail verification besides the service: sign-up writes the user and
// the first link in one statement, and the credentials housekeeping purges dead links.
export { deleteDeadVerificationTokens, insertUserWithVerificationLink } from './email-verification.repository.js';

const TTL_MINUTES = EMAIL_VERIFICATION_TTL_HOURS * 60;

export function verificationLink(config: Config, token: string): string {
  return `${config.frontendHost}/verify-email?token=${encodeURIComponent(token)}`;
}

/**
 * Verified e-mail addresses (decision 029). A link proves the person reading the mail controls the
 * address: `verify` links the account's own address, `change` links a new one the account moves to
 * only when it is followed (the old address is then told). Links are single-use, stored as digests,
 * live 24 hours, and only an account's newest link works.
 */
export function createEmailVerificationService(deps: MailingServiceDeps) {
  const { db, config, clock, audit, wakeMailer } = deps;

  /** A new token, its digest and expiry, and the link carrying it: nothing stored yet. */
  function newLink(): { token: string; tokenHash: string; expiresAt: Date; link: string } {
    const token = generateToken();
    return {
      token,
      tokenHash: sha256(token),
      expiresAt: addMinutes(clock.now(), TTL_MINUTES),
      link: verificationLink(config, token),
    };
  }

  /** A fresh link for `email`, its digest stored in the caller's transaction; answers the link and its expiry. */
  async function issueLink(
    tx: DbOrTx,
    userId: string,
    purpose: VerificationPurpose,
    email: string,
  ): Promise<{ link: string; expiresAt: Date }> {
    const { tokenHash, expiresAt, link } = newLink();
    await replaceVerificationToken(tx, { userId, purpose, email, tokenHash, expiresAt }, clock.now());
    return { link, expiresAt };
  }

  /** Mails `email` a link that moves the account to it; the account keeps its address meanwhile. */
  async function requestChange(tx: DbOrTx, user: SessionUser, email: string): Promise<void> {
    const { link, expiresAt } = await issueLink(tx, user.id, 'change', email);
    // Sent late, the link would be dead: the mail expires with it.
    await enqueueMail(tx, {
      ...emailChangeVerificationMail(email, user.email, link, EMAIL_VERIFICATION_TTL_HOURS),
      expiresAt,
    });
  }

  /**
   * An address changed by someone other than its owner's link (an admin): outstanding links die,
   * and the old address is told like after a change its owner made.
   */
  async function addressReplaced(tx: DbOrTx, userId: string, oldEmail: string, newEmail: string): Promise<void> {
    await invalidateVerificationTokens(tx, userId, clock.now());
    await enqueueMail(tx, emailChangedMail(oldEmail, newEmail, `${config.frontendHost}/contact`));
  }

  return {
    newLink,
    issueLink,
    requestChange,
    addressReplaced,

    async status(auth: AuthContext): Promise<EmailVerificationStatus> {
      return {
        email_verified: auth.user.emailVerifiedAt !== null,
        pending_email: await findPendingEmail(db, auth.user.id, clock.now()),
      };
    },

    /** A new link: to the pending new address if a change waits, else to the unverified own address. */
    async resend(auth: AuthContext): Promise<void> {
      await db.transaction(async (tx) => {
        const user = (await findUserById(tx, auth.user.id)) ?? auth.user;
        const pending = await findPendingEmail(tx, user.id, clock.now());
        if (pending !== null) {
          await requestChange(tx, user, pending);
          return;
        }
        if (user.emailVerifiedAt !== null) {
          throw badRequest(emailVerificationMessages.alreadyVerified, 'email_already_verified');
        }
        const { link, expiresAt } = await issueLink(tx, user.id, 'verify', user.email);
        await enqueueMail(tx, {
          ...emailVerificationMail(user.email, link, EMAIL_VERIFICATION_TTL_HOURS),
          expiresAt,
        });
      });
      wakeMailer();
    },

    /**
     * Follows a link. Anyone holding it may (the mail is the proof, whoever is signed in here); a
     * link whose account no longer has the address it was made for is dead.
     */
    async verify(token: string, ip: string | null): Promise<EmailVerified> {
      const invalid = () => badRequest(emailVerificationMessages.invalidToken, 'invalid_verification_token');
      try {
        const result = await db.transaction(async (tx): Promise<EmailVerified> => {
          const now = clock.now();
          const link = await consumeVerificationToken(tx, sha256(token), now);
          if (!link) throw invalid();
          const before = await findUserById(tx, link.userId);
          if (!before || !before.isActive) throw invalid();
          const actor: Actor = { user: before, sessionId: '', roleNames: [], ip };
          if (link.purpose === 'verify') {
            if (link.email !== before.email) throw invalid();
            const after = before.emailVerifiedAt
              ? before
              : ((await updateUser(tx, before.id, { emailVerifiedAt: now, updatedAt: now })) ?? before);
            await audit.record(tx, actor, {
              action: AUDIT_ACTIONS.emailVerify,
              targetType: AUDIT_TARGET_TYPES.user,
              targetId: before.id,
              before: toUserAuditSnapshot(before),
              after: toUserAuditSnapshot(after),
            });
            return { message: emailVerificationMessages.verified, email: after.email, changed: false };
          }
          // A change: the new address must still be free (another account may have taken it since).
          const holder = await findUserByEmail(tx, link.email);
          if (holder && holder.id !== before.id) throw conflict(userMessages.emailTaken, 'email_taken');
          await invalidateVerificationTokens(tx, before.id, now);
          const after = await updateUser(tx, before.id, { email: link.email, emailVerifiedAt: now, updatedAt: now });
          if (!after) throw invalid();
          await enqueueMail(tx, emailChangedMail(before.email, after.email, `${config.frontendHost}/contact`));
          await audit.record(tx, actor, {
            action: AUDIT_ACTIONS.emailChange,
            targetType: AUDIT_TARGET_TYPES.user,
            targetId: before.id,
            before: toUserAuditSnapshot(before),
            after: toUserAuditSnapshot(after),
          });
          return { message: emailVerificationMessages.changed, email: after.email, changed: true };
        });
        if (result.changed) wakeMailer();
        return result;
      } catch (error) {
        // Another account took the address between the check and the write.
        if (isUniqueViolation(error)) throw conflict(userMessages.emailTaken, 'email_taken');
        throw error;
      }
    },
  };
}

export type EmailVerificationService = ReturnType<typeof createEmailVerificationService>;
