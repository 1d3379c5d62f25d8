import { z } from 'zod';

/**
 * Verified e-mail addresses (decision 029, VERIFY-* requirements). A sign-up, and a change of
 * address, mail a single-use link; until the address is verified the account signs in and uses its
 * settings but cannot subscribe or download, and a changed address takes effect only once verified.
 */

/** How long a verification link works. */
export const EMAIL_VERIFICATION_TTL_HOURS = 24;

export const emailVerificationMessages = {
  verified: 'Your e-mail address is verified',
  changed: 'Your e-mail address is changed and verified',
  sent: 'Verification e-mail sent. Follow the link in it within 24 hours.',
  invalidToken: 'This verification link is invalid, was already used or has expired',
  alreadyVerified: 'Your e-mail address is already verified',
  notVerified: 'Verify your e-mail address first: follow the link we sent you, or send a new one from your settings.',
  /** The answer of `PATCH /users/me` with a new address, and the profile tab's note while it waits. */
  changePending: 'We sent a link to your new address. Your e-mail changes when you follow it.',
  /** Resending refused while attempts cannot be counted (decision 020). */
  resendUnavailable: 'Verification e-mails are temporarily unavailable. Try again shortly.',
} as const;

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
