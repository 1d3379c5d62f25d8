// First: Zod's settings must be in place before any schema is built.
import '@dataplatform/contract/zod-config';
import {
  EmailSchema,
  messages,
  PasswordConfirmationSchema,
  PasswordSchema,
  SsoLinkSchema,
  SsoStartSchema,
  UserRegisterSchema,
} from '@dataplatform/contract';
import { z } from 'zod';

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

/** "Sign in with SSO": the e-mail whose domain picks the identity provider (SSO-2). */
export const SsoStartFormSchema = SsoStartSchema;
export type SsoStartFormValues = z.input<typeof SsoStartFormSchema>;
export type SsoStartFormOutput = z.output<typeof SsoStartFormSchema>;

/** The link step (SSO-5): the existing account's password. */
export const SsoLinkFormSchema = SsoLinkSchema.pick({ password: true });
export type SsoLinkFormValues = z.input<typeof SsoLinkFormSchema>;
export type SsoLinkFormOutput = z.output<typeof SsoLinkFormSchema>;
