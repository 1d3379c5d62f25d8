import './zod-config.js';
import { z } from 'zod';
import { messages, PasswordSchema } from './fields.js';

/** `POST /login/access-token` form body (OAuth2 password flow field names). */
export const LoginFormSchema = z.object({
  username: z
    .string({ error: messages.usernameRequired })
    .trim()
    .toLowerCase()
    .min(1, messages.usernameRequired)
    .max(320, 'Incorrect email or password'),
  password: z
    .string({ error: messages.passwordRequired })
    .min(1, messages.passwordRequired)
    .max(1024, 'Incorrect email or password'),
  grant_type: z.string().optional(),
  scope: z.string().optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
});
export type LoginForm = z.infer<typeof LoginFormSchema>;

export const TokenSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
});
export type Token = z.infer<typeof TokenSchema>;

/** `POST /reset-password/` */
export const NewPasswordSchema = z.object({
  token: z.string({ error: 'Invalid token' }).min(1, 'Invalid token').max(512, 'Invalid token'),
  new_password: PasswordSchema,
});
export type NewPassword = z.infer<typeof NewPasswordSchema>;

export const authMessages = {
  incorrectCredentials: 'Incorrect email or password',
  inactiveUser: 'Inactive user',
  invalidCredentials: 'Could not validate credentials',
  notAuthenticated: 'Not authenticated',
  invalidResetToken: 'Invalid or expired token',
  passwordUpdated: 'Password updated successfully',
  recoverySent: 'If that address is registered, a password recovery e-mail is on its way',
  loggedOut: 'Logged out',
  tooManyRequests: 'Too many requests, please try again later',
  /** Sign-in refused while attempts cannot be counted (decision 049). */
  signInUnavailable: 'Sign-in is temporarily unavailable. Try again shortly.',
  /** Recovery and reset refused while attempts cannot be counted (decision 049). */
  recoveryUnavailable: 'Password recovery is temporarily unavailable. Try again shortly.',
} as const;

/** Reset links live at most this long. */
export const RESET_TOKEN_TTL_MINUTES = 60;
