// No zod here (decision 030): a screen that shows only these texts or limits does not load zod.
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const FULL_NAME_MIN_LENGTH = 3;
export const FULL_NAME_MAX_LENGTH = 255;
export const PROFILE_FULL_NAME_MAX_LENGTH = 30;
export const EMAIL_MAX_LENGTH = 254;

export const messages = {
  emailInvalid: 'Invalid email address',
  emailRequired: 'Email is required',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  passwordRequired: 'Password is required',
  passwordTooCommon: 'This password is one of the most common ones. Choose one that is harder to guess',
  passwordsDoNotMatch: 'The passwords do not match',
  confirmationRequired: 'Password confirmation is required',
  fullNameRequired: 'Full Name is required',
  fullNameTooShort: `Full Name must be at least ${FULL_NAME_MIN_LENGTH} characters`,
  fullNameTooLong: `Full Name must be at most ${FULL_NAME_MAX_LENGTH} characters`,
  profileFullNameTooLong: `Full Name must be at most ${PROFILE_FULL_NAME_MAX_LENGTH} characters`,
  usernameRequired: 'Username is required',
} as const;
