// No zod here (decision 030): a screen that shows only these texts or limits does not load zod.

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
  resetDone: 'Two-factor authentication is off and the user is signed out everywhere',
  resetOwn: 'Turn off your own two-factor authentication under Settings, Security, with your password and a code',
} as const;
