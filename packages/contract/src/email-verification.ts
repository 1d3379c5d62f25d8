import './zod-config.js';
import { z } from 'zod';
import { emailVerificationMessages } from './email-verification-constants.js';

export * from './email-verification-constants.js';

/**
 * Verified e-mail addresses (decision 029, VERIFY-* requirements). A sign-up, and a change of
 * address, mail a single-use link; until the address is verified the account signs in and uses its
 * settings but cannot subscribe or download, and a changed address takes effect only once verified.
 */

/** `POST /verify-email/`: the token from the mailed link. */
export const VerifyEmailSchema = z.object({
  token: z
    .string({ error: emailVerificationMessages.invalidToken })
    .min(1, emailVerificationMessages.invalidToken)
    .max(512, emailVerificationMessages.invalidToken),
});
export type VerifyEmail = z.infer<typeof VerifyEmailSchema>;

/** What a followed link did: verified the address the account has, or moved the account to a new one. */
export const EmailVerifiedSchema = z.object({
  message: z.string(),
  email: z.string(),
  changed: z.boolean(),
});
export type EmailVerified = z.infer<typeof EmailVerifiedSchema>;

/** `GET /users/me/email-verification`: where the caller's address stands. */
export const EmailVerificationStatusSchema = z.object({
  email_verified: z.boolean(),
  /** A new address waiting for its link to be followed; the account keeps its `email` until then. */
  pending_email: z.string().nullable(),
});
export type EmailVerificationStatus = z.infer<typeof EmailVerificationStatusSchema>;
