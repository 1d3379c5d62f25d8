import './zod-config.js';
import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  FULL_NAME_MAX_LENGTH,
  FULL_NAME_MIN_LENGTH,
  messages,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PROFILE_FULL_NAME_MAX_LENGTH,
} from './fields-constants.js';

/**
 * Field schemas with the exact messages of AUTH-VALID-1 to AUTH-VALID-3, AUTH-SIGNUP-2 and SET-PROFILE-2. The web forms and the server both
 * validate with these, so a person sees the same words whichever side catches the mistake.
 */
export * from './fields-constants.js';

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
