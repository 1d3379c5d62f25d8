// No zod here (decision 030): a screen that shows only these texts or limits does not load zod.
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
  /** Resending refused while attempts cannot be counted (decision 049). */
  resendUnavailable: 'Verification e-mails are temporarily unavailable. Try again shortly.',
} as const;
