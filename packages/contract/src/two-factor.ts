import './zod-config.js';
import { z } from 'zod';
import { messages } from './fields.js';
import { twoFactorMessages } from './two-factor-constants.js';

export * from './two-factor-constants.js';

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
