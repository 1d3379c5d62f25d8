import { z } from 'zod';

/**
 * Field schemas with the exact messages of AUTH-VALID-1 to AUTH-VALID-3, AUTH-SIGNUP-2 and SET-PROFILE-2. The web forms and the server both
 * validate with these, so a person sees the same words whichever side catches the mistake.
 */
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

/** A string field whose absence (or wrong type) reads as "X is required". */
function requiredString(requiredMessage: string) {
  return z.string({ error: requiredMessage });
}

/** Trimmed, lower-cased e-mail: addresses are unique case-insensitively. */
export const EmailSchema = requiredString(messages.emailRequired)
  .trim()
  .toLowerCase()
  .min(1, messages.emailRequired)
  .max(EMAIL_MAX_LENGTH, messages.emailInvalid)
  .email(messages.emailInvalid);

export const PasswordSchema = requiredString(messages.passwordRequired)
  .min(1, messages.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, messages.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, messages.passwordTooLong);

export const PasswordConfirmationSchema = requiredString(messages.confirmationRequired).min(
  1,
  messages.confirmationRequired,
);

export const FullNameSchema = requiredString(messages.fullNameRequired)
  .trim()
  .min(1, messages.fullNameRequired)
  .max(FULL_NAME_MAX_LENGTH, messages.fullNameTooLong);

export const SignupFullNameSchema = FullNameSchema.min(FULL_NAME_MIN_LENGTH, messages.fullNameTooShort);

export const ProfileFullNameSchema = z
  .string()
  .trim()
  .max(PROFILE_FULL_NAME_MAX_LENGTH, messages.profileFullNameTooLong);
