import { createHmac, randomBytes } from 'node:crypto';
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  authMessages,
  RECOVERY_CODE_COUNT,
  TWO_FACTOR_CHALLENGE_TTL_MINUTES,
  twoFactorMessages,
  userMessages,
  type TwoFactorChallenge,
  type TwoFactorDisable,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@dataplatform/contract';
import { createSigner, createVerifier } from 'fast-jwt';
import { generateSecret, generateURI, verify } from 'otplib';
import type { DbOrTx } from '../../db/client.js';
import type { Actor, AuthContext, SessionUser } from '../../lib/auth-context.js';
import { addMinutes } from '../../lib/clock.js';
import { badRequest, conflict, notFound, tooManyRequests } from '../../lib/errors.js';
import { deriveKey } from '../../lib/keys.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { isUuid } from '../../lib/uuid.js';
import { enqueueMail, PRODUCT_NAME, twoFactorChangedMail, type MailingServiceDeps } from '../mail/mail.service.js';
import { findUserById, passwordMatches, type UserRow } from '../users/users.service.js';
import type { LoginThrottle } from '../auth/auth.service.js';
import type { SessionMeta, SessionService } from '../sessions/sessions.service.js';
import {
  advanceTimeStep,
  countUnusedRecoveryCodes,
  deleteTwoFactor,
  findTwoFactor,
  isTwoFactorEnabled,
  markTwoFactorEnabled,
  replaceRecoveryCodes,
  upsertPendingTwoFactor,
  useRecoveryCode,
} from './two-factor.repository.js';

/** Codes one step (30 s) either side of now are accepted: a phone's clock drifts a little. */
const STEP_TOLERANCE_SECONDS = 30;
const CHALLENGE_PURPOSE = 'two-factor-challenge';
/** 32 letters and digits that cannot be mistaken for each other (no l, o, 0, 1): 5 bits each. */
const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A recovery code: ten characters (50 random bits), shown as `xxxxx-xxxxx`. */
function newRecoveryCode(): string {
  const chars = [...randomBytes(10)].map((byte) => RECOVERY_ALPHABET[byte & 31]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** The form a recovery code is compared in: case, spaces and dashes do not matter. */
function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]+/g, '');
}

const invalidCode = () => badRequest(twoFactorMessages.invalidCode, 'invalid_two_factor_code');
const invalidChallenge = () => badRequest(twoFactorMessages.invalidChallenge, 'invalid_two_factor_challenge');

/** Someone proving who they are during sign-in, as the audit log records them (there is no session yet). */
function signingInActor(user: SessionUser, ip: string | null): Actor {
  return { user, sessionId: '', roleNames: [], ip };
}

/**
 * Two-factor sign-in with TOTP (RFC 6238) and recovery codes (decision 026). The secret is sealed
 * at rest; recovery codes are stored as keyed digests; the password step hands out a short-lived
 * challenge token signed with a key of its own, so it can never pass as a session.
 */
export function createTwoFactorService(
  deps: MailingServiceDeps & {
    sessions: SessionService;
    /** Failed codes per account, like failed passwords but counted apart (decision 026). */
    throttle: LoginThrottle;
  },
) {
  const { db, config, clock, sessions, audit, wakeMailer, throttle } = deps;
  const secrets = createSecretBox(deriveKey(config.secretKey, 'totp-secret'));
  const recoveryKey = deriveKey(config.secretKey, 'recovery-codes');
  const challengeKey = deriveKey(config.secretKey, CHALLENGE_PURPOSE).export();
  const signChallenge = createSigner({ key: challengeKey, algorithm: 'HS256' });
  const verifyChallenge = createVerifier({
    key: challengeKey,
    algorithms: ['HS256'],
    requiredClaims: ['sub', 'purpose', 'pwd', 'exp'],
    // Checked below against the injected clock.
    ignoreExpiration: true,
    ignoreNotBefore: true,
  });

  const hashRecoveryCode = (code: string) =>
    createHmac('sha256', recoveryKey).update(normalizeRecoveryCode(code)).digest('hex');
  const epochNow = () => Math.floor(clock.now().getTime() / 1000);

  /**
   * The time step `code` matches for this secret, newer than `afterTimeStep`; undefined for a wrong
   * code or one already used (a replay).
   */
  async function matchTimeStep(secret: string, code: string, afterTimeStep: number | null) {
    const result = await verify({
      secret,
      token: code,
      epoch: epochNow(),
      epochTolerance: STEP_TOLERANCE_SECONDS,
      ...(afterTimeStep === null ? {} : { afterTimeStep }),
    }).catch(() => ({ valid: false as const }));
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  }

  /** Counts a code attempt; a spent budget is refused, and the refusal audited. */
  async function beginAttempt(user: SessionUser, ip: string | null): Promise<void> {
    const wait = await throttle.begin(user.id, ip ?? '');
    if (wait === 0) return;
    await db.transaction((tx) =>
      audit.record(tx, signingInActor(user, ip), {
        action: AUDIT_ACTIONS.twoFactorThrottled,
        targetType: AUDIT_TARGET_TYPES.user,
        targetId: user.id,
        before: null,
        after: { retry_after_seconds: wait },
      }),
    );
    throw tooManyRequests(authMessages.tooManyRequests, wait);
  }

  /** Checks a TOTP code against an enabled secret and records its time step; false when refused. */
  async function acceptTotp(tx: DbOrTx, userId: string, code: string): Promise<boolean> {
    const row = await findTwoFactor(tx, userId);
    if (!row?.enabledAt) return false;
    const timeStep = await matchTimeStep(secrets.open(row.sealedSecret, userId), code, row.lastTimeStep);
    return timeStep !== undefined && (await advanceTimeStep(tx, userId, timeStep));
  }

  async function mail(
    tx: DbOrTx,
    user: SessionUser,
    change: Parameters<typeof twoFactorChangedMail>[1],
    left?: number,
  ) {
    await enqueueMail(
      tx,
      twoFactorChangedMail(user.email, change, left === undefined ? {} : { recoveryCodesLeft: left }),
    );
  }

  /** The owner turned it on or off: its audit entry and its mail, in the change's transaction. */
  async function recordOwnSwitch(tx: DbOrTx, actor: Actor, enabled: boolean) {
    await audit.record(tx, actor, {
      action: enabled ? AUDIT_ACTIONS.twoFactorEnable : AUDIT_ACTIONS.twoFactorDisable,
      targetType: AUDIT_TARGET_TYPES.user,
      targetId: actor.user.id,
      before: { two_factor_enabled: !enabled },
      after: { two_factor_enabled: enabled },
    });
    await mail(tx, actor.user, enabled ? 'enabled' : 'disabled');
  }

  return {
    isEnabled: (userId: string) => isTwoFactorEnabled(db, userId),

    /** Whether a superuser must turn it on before admin operations answer (REQUIRE_SUPERUSER_2FA). */
    async enrollmentRequired(auth: AuthContext): Promise<boolean> {
      if (!config.requireSuperuserTwoFactor || !auth.user.isSuperuser) return false;
      return !(await isTwoFactorEnabled(db, auth.user.id));
    },

    async status(auth: AuthContext): Promise<TwoFactorStatus> {
      const enabled = await isTwoFactorEnabled(db, auth.user.id);
      return {
        enabled,
        recovery_codes_left: enabled ? await countUnusedRecoveryCodes(db, auth.user.id) : 0,
        required: config.requireSuperuserTwoFactor && auth.user.isSuperuser,
      };
    },

    /** A new secret for the authenticator app; nothing changes for sign-in until it is confirmed. */
    async beginSetup(auth: AuthContext): Promise<TwoFactorSetup> {
      const secret = generateSecret();
      const stored = await upsertPendingTwoFactor(db, auth.user.id, secrets.seal(secret, auth.user.id));
      if (!stored) throw conflict(twoFactorMessages.alreadyEnabled);
      return {
        secret,
        otpauth_url: generateURI({ issuer: PRODUCT_NAME, label: auth.user.email, secret }),
      };
    },

    /** Turns it on with a first code from the app; answers the recovery codes, shown this once. */
    async confirmSetup(actor: Actor, code: string): Promise<string[]> {
      await beginAttempt(actor.user, actor.ip);
      const row = await findTwoFactor(db, actor.user.id);
      if (!row) throw badRequest(twoFactorMessages.noPendingEnrollment);
      if (row.enabledAt) throw conflict(twoFactorMessages.alreadyEnabled);
      const timeStep = await matchTimeStep(secrets.open(row.sealedSecret, actor.user.id), code, null);
      if (timeStep === undefined) throw invalidCode();
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await db.transaction(async (tx) => {
        if (!(await markTwoFactorEnabled(tx, actor.user.id, clock.now(), timeStep))) {
          throw conflict(twoFactorMessages.alreadyEnabled);
        }
        await replaceRecoveryCodes(tx, actor.user.id, codes.map(hashRecoveryCode));
        await recordOwnSwitch(tx, actor, true);
      });
      wakeMailer();
      await throttle.succeeded(actor.user.id, actor.ip ?? '');
      return codes;
    },

    /** Turns it off: the password and a current code, both, so a left-open session is not enough. */
    async disable(actor: Actor, body: TwoFactorDisable): Promise<void> {
      await beginAttempt(actor.user, actor.ip);
      if (!(await isTwoFactorEnabled(db, actor.user.id))) throw badRequest(twoFactorMessages.notEnabled);
      if (!(await passwordMatches(db, actor.user.id, body.password))) {
        throw badRequest(userMessages.incorrectPassword, 'incorrect_password');
      }
      await db.transaction(async (tx) => {
        if (!(await acceptTotp(tx, actor.user.id, body.code))) throw invalidCode();
        await deleteTwoFactor(tx, actor.user.id);
        await recordOwnSwitch(tx, actor, false);
      });
      wakeMailer();
      await throttle.succeeded(actor.user.id, actor.ip ?? '');
    },

    /**
     * A superuser turns it off for someone who lost both the authenticator and the recovery codes
     * (after checking who they are, outside the product), and signs them out everywhere: a lost
     * phone may still hold a session. Not for one's own account, which takes the password and a code.
     */
    async resetAsAdmin(actor: Actor, userId: string): Promise<void> {
      if (userId === actor.user.id) throw badRequest(twoFactorMessages.resetOwn);
      await db.transaction(async (tx) => {
        const user = await findUserById(tx, userId);
        if (!user) throw notFound(userMessages.notFound);
        if (!(await deleteTwoFactor(tx, userId))) throw badRequest(twoFactorMessages.notEnabled);
        const revoked = await sessions.revokeAllForUser(tx, userId);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.twoFactorReset,
          targetType: AUDIT_TARGET_TYPES.user,
          targetId: userId,
          before: { two_factor_enabled: true },
          after: { two_factor_enabled: false, sessions_revoked: revoked },
        });
        await mail(tx, user, 'reset');
      });
      wakeMailer();
    },

    /**
     * What the password step answers an account with two-factor sign-in on (the login lookup read
     * the flag): a short-lived challenge for the code step, void once the password changes.
     */
    challenge(user: Pick<UserRow, 'id' | 'passwordChangedAt'>): TwoFactorChallenge {
      const now = clock.now();
      const expiresAt = addMinutes(now, TWO_FACTOR_CHALLENGE_TTL_MINUTES);
      const token = signChallenge({
        sub: user.id,
        purpose: CHALLENGE_PURPOSE,
        pwd: user.passwordChangedAt.getTime(),
        iat: Math.floor(now.getTime() / 1000),
        exp: Math.floor(expiresAt.getTime() / 1000),
      });
      return { two_factor_required: true, challenge_token: token, expires_in: TWO_FACTOR_CHALLENGE_TTL_MINUTES * 60 };
    },

    /**
     * The code step: a live challenge and a TOTP code (each time step once) or an unused recovery
     * code open a session. Wrong codes are counted per account like wrong passwords.
     */
    async completeLogin(body: { challenge_token: string; code: string }, meta: SessionMeta): Promise<string> {
      let payload: Record<string, unknown>;
      try {
        payload = verifyChallenge(body.challenge_token) as Record<string, unknown>;
      } catch {
        throw invalidChallenge();
      }
      const { sub, purpose, pwd, exp } = payload;
      if (purpose !== CHALLENGE_PURPOSE || typeof sub !== 'string' || !isUuid(sub)) throw invalidChallenge();
      if (typeof exp !== 'number' || exp * 1000 <= clock.now().getTime()) throw invalidChallenge();
      const user = await findUserById(db, sub);
      if (!user || !user.isActive || user.passwordChangedAt.getTime() !== pwd) throw invalidChallenge();
      await beginAttempt(user, meta.ip);

      const code = body.code.replace(/\s+/g, '');
      let recoveryCodesLeft: number | undefined;
      await db.transaction(async (tx) => {
        if (/^\d{6}$/.test(code)) {
          if (!(await acceptTotp(tx, user.id, code))) throw invalidCode();
          return;
        }
        if (!(await isTwoFactorEnabled(tx, user.id))) throw invalidCode();
        if (!(await useRecoveryCode(tx, user.id, hashRecoveryCode(code), clock.now()))) throw invalidCode();
        recoveryCodesLeft = await countUnusedRecoveryCodes(tx, user.id);
        await audit.record(tx, signingInActor(user, meta.ip), {
          action: AUDIT_ACTIONS.twoFactorRecoveryCodeUsed,
          targetType: AUDIT_TARGET_TYPES.user,
          targetId: user.id,
          before: null,
          after: { recovery_codes_left: recoveryCodesLeft },
        });
        await mail(tx, user, 'recovery_code_used', recoveryCodesLeft);
      });
      if (recoveryCodesLeft !== undefined) wakeMailer();
      await throttle.succeeded(user.id, meta.ip ?? '');
      return sessions.issue(user.id, meta);
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
