import { z } from 'zod';
import { messages } from './fields.js';

/**
 * Two-factor sign-in with TOTP codes (RFC 6238) and single-use recovery codes (decision 026,
 * TOTP-* requirements).
 */

/** How many recovery codes an enrolment hands out. */
export const RECOVERY_CODE_COUNT = 10;
/** How long the password step's challenge token lets the code step be tried. */
export const TWO_FACTOR_CHALLENGE_TTL_MINUTES = 5;

export const twoFactorMessages = {
  invalidCode: 'Invalid authentication code',
  invalidChallenge: 'Your sign-in took too long or was already used. Log in again.',
  alreadyEnabled: 'Two-factor authentication is already on',
  notEnabled: 'Two-factor authentication is not on',
  noPendingEnrollment: 'Start the set-up again: no pending two-factor set-up was found',
  enrollmentRequired:
    'Administrators must turn on two-factor authentication before using the admin area. Set it up under Settings, Security.',
  codeRequired: 'Enter the code from your authenticator app',
  codeFormat: 'Enter the 6-digit code from your authenticator app',
  recoveryCodeRequired: 'Enter one of your recovery codes',
} as const;

/** A six-digit code from the authenticator app (spaces allowed while typing, dropped here). */
export const TotpCodeSchema = z
  .string({ error: twoFactorMessages.codeRequired })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(
    z
      .string()
      .min(1, twoFactorMessages.codeRequired)
      .regex(/^\d{6}$/, twoFactorMessages.codeFormat),
  );

/**
 * The code step: a TOTP code or a recovery code (`xxxxx-xxxxx`). Bounded; the service tells which
 * it is by its shape.
 */
export const TwoFactorLoginSchema = z.object({
  challenge_token: z.string({ error: twoFactorMessages.invalidChallenge }).min(1).max(2048),
  code: z
    .string({ error: twoFactorMessages.codeRequired })
    .trim()
    .min(1, twoFactorMessages.codeRequired)
    .max(64, twoFactorMessages.invalidCode),
});
export type TwoFactorLogin = z.infer<typeof TwoFactorLoginSchema>;

/** What the password step answers for an account with two-factor sign-in on: no session yet. */
export const TwoFactorChallengeSchema = z.object({
  two_factor_required: z.literal(true),
  challenge_token: z.string(),
  /** Seconds the challenge token stays usable. */
  expires_in: z.number().int(),
});
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallengeSchema>;

export const TwoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  /** Unused recovery codes left (0 while off). */
  recovery_codes_left: z.number().int(),
  /** Whether this account must turn it on before the admin area works (superusers, when required). */
  required: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusSchema>;

/** A new secret, not on until confirmed with a code. Shown once; the server keeps it sealed. */
export const TwoFactorSetupSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
});
export type TwoFactorSetup = z.infer<typeof TwoFactorSetupSchema>;

export const TwoFactorConfirmSchema = z.object({ code: TotpCodeSchema });
export type TwoFactorConfirm = z.infer<typeof TwoFactorConfirmSchema>;

export const RecoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

export const TwoFactorDisableSchema = z.object({
  password: z
    .string({ error: messages.passwordRequired })
    .min(1, messages.passwordRequired)
    .max(1024, messages.passwordRequired),
  code: TotpCodeSchema,
});
export type TwoFactorDisable = z.infer<typeof TwoFactorDisableSchema>;
