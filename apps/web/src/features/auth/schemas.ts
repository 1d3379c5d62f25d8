// First: Zod's settings must be in place before any schema is built.
import '@dataplatform/contract/zod-config';
import {
  EmailSchema,
  messages,
  PasswordConfirmationSchema,
  PasswordSchema,
  SsoLinkSchema,
  SsoStartSchema,
  TotpCodeSchema,
  twoFactorMessages,
  UserRegisterSchema,
} from '@dataplatform/contract';
import { z } from 'zod';

// Every auth form fetches its schema when the person nears it (lib/schema-on-demand.ts): zod's
// classes and the contract's schemas stay out of the auth pages' first load.

/** Signup: the contract's own schema, so the form and the server agree word for word. */
export const SignupFormSchema = UserRegisterSchema;
export type SignupFormValues = z.input<typeof SignupFormSchema>;
export type SignupFormOutput = z.output<typeof SignupFormSchema>;

/** Login: the e-mail is the username (required, then an e-mail); any password has 8 or more characters. */
export const LoginFormFieldsSchema = z.object({
  username: z
    .string({ error: messages.usernameRequired })
    .trim()
    .toLowerCase()
    .min(1, messages.usernameRequired)
    .email(messages.emailInvalid),
  password: PasswordSchema,
});
export type LoginFormValues = z.input<typeof LoginFormFieldsSchema>;
export type LoginFormOutput = z.output<typeof LoginFormFieldsSchema>;

export const RecoverPasswordFormSchema = z.object({ email: EmailSchema });
export type RecoverPasswordFormValues = z.input<typeof RecoverPasswordFormSchema>;
export type RecoverPasswordFormOutput = z.output<typeof RecoverPasswordFormSchema>;

/** Reset: the new password and its confirmation; the token comes from the link, not the form. */
export const ResetPasswordFormSchema = z
  .object({ new_password: PasswordSchema, confirm_password: PasswordConfirmationSchema })
  .refine((value) => value.new_password === value.confirm_password, {
    message: messages.passwordsDoNotMatch,
    path: ['confirm_password'],
  });
export type ResetPasswordFormValues = z.input<typeof ResetPasswordFormSchema>;
export type ResetPasswordFormOutput = z.output<typeof ResetPasswordFormSchema>;

/** Log in's second step (TOTP-LOGIN-3): the authenticator app's code, or one of the recovery codes. */
export const AuthenticatorCodeFormSchema = z.object({ code: TotpCodeSchema });
export const RecoveryCodeFormSchema = z.object({
  code: z.string().trim().min(1, twoFactorMessages.recoveryCodeRequired).max(64, twoFactorMessages.invalidCode),
});

/** "Sign in with SSO": the e-mail whose domain picks the identity provider (SSO-2). */
export const SsoStartFormSchema = SsoStartSchema;
export type SsoStartFormValues = z.input<typeof SsoStartFormSchema>;
export type SsoStartFormOutput = z.output<typeof SsoStartFormSchema>;

/** The link step (SSO-5): the existing account's password. */
export const SsoLinkFormSchema = SsoLinkSchema.pick({ password: true });
export type SsoLinkFormValues = z.input<typeof SsoLinkFormSchema>;
export type SsoLinkFormOutput = z.output<typeof SsoLinkFormSchema>;
