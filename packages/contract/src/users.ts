import './zod-config.js';
import { z } from 'zod';
import { pageOf, PaginationQuerySchema } from './common.js';
import {
  EmailSchema,
  FullNameSchema,
  messages,
  PasswordConfirmationSchema,
  PasswordSchema,
  ProfileFullNameSchema,
  SignupFullNameSchema,
} from './fields.js';
import { USER_IDS_MAX, USER_SEARCH_MAX, userListMessages } from './users-constants.js';

export * from './users-constants.js';

/** What any client may see of a user: never the hash, never session data. */
export const UserPublicSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  full_name: z.string().nullable(),
  is_active: z.boolean(),
  is_superuser: z.boolean(),
  /** Whether the owner followed a verification link to this address (or an admin or SSO vouched for it). */
  email_verified: z.boolean(),
  created_at: z.iso.datetime(),
});
export type UserPublic = z.infer<typeof UserPublicSchema>;

/** `GET /users/me`: the caller, with the names of its roles (the settings area shows a tab per `download_` role). */
export const UserMeSchema = UserPublicSchema.extend({ roles: z.array(z.string()) });
export type UserMe = z.infer<typeof UserMeSchema>;

export const UsersPublicSchema = pageOf(UserPublicSchema);
export type UsersPublic = z.infer<typeof UsersPublicSchema>;

/**
 * `GET /users/`: paging plus an optional search `q`, matched case-insensitively anywhere in the
 * e-mail or the full name, and an optional `ids`, comma-separated user ids (at most USER_IDS_MAX)
 * to read those users in one request. Blank (after trimming) means no filter.
 */
export const UserListQuerySchema = PaginationQuerySchema.extend({
  q: z
    .string()
    .trim()
    .max(USER_SEARCH_MAX, `Search text must be at most ${USER_SEARCH_MAX} characters`)
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
  ids: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== ''),
    )
    .pipe(
      z
        .array(z.uuid({ error: userListMessages.invalidUserId }))
        .max(USER_IDS_MAX, userListMessages.tooManyIds)
        .transform((ids) => (ids.length === 0 ? undefined : ids)),
    )
    .optional(),
});
export type UserListQuery = z.infer<typeof UserListQuerySchema>;

function passwordsMatch<T extends { confirm_password: string }>(
  password: (value: T) => string,
): [(value: T) => boolean, { message: string; path: string[] }] {
  return [
    (value: T) => password(value) === value.confirm_password,
    { message: messages.passwordsDoNotMatch, path: ['confirm_password'] },
  ];
}

/** `POST /users/signup` */
export const UserRegisterSchema = z
  .object({
    email: EmailSchema,
    password: PasswordSchema,
    confirm_password: PasswordConfirmationSchema,
    full_name: SignupFullNameSchema,
  })
  .refine(...passwordsMatch<{ password: string; confirm_password: string }>((v) => v.password));
export type UserRegister = z.infer<typeof UserRegisterSchema>;

/** `POST /users/` (admin) */
export const UserCreateSchema = z.object({
  email: EmailSchema,
  password: PasswordSchema,
  full_name: FullNameSchema.nullish(),
  is_active: z.boolean().default(true),
  is_superuser: z.boolean().default(false),
});
export type UserCreate = z.infer<typeof UserCreateSchema>;

/** `PATCH /users/{user_id}` (admin): every field optional. */
export const UserUpdateSchema = z.object({
  email: EmailSchema.optional(),
  password: PasswordSchema.optional(),
  full_name: FullNameSchema.nullish(),
  is_active: z.boolean().optional(),
  is_superuser: z.boolean().optional(),
});
export type UserUpdate = z.infer<typeof UserUpdateSchema>;

/** `PATCH /users/me`: a person edits only their name and e-mail (never their flags). */
export const UserUpdateMeSchema = z.strictObject({
  full_name: ProfileFullNameSchema.nullish(),
  email: EmailSchema.optional(),
});
export type UserUpdateMe = z.infer<typeof UserUpdateMeSchema>;

/** `PATCH /users/me/password` */
export const UpdatePasswordSchema = z
  .object({
    current_password: z
      .string({ error: messages.passwordRequired })
      .min(1, messages.passwordRequired)
      .max(1024, messages.passwordRequired),
    new_password: PasswordSchema,
    confirm_password: PasswordConfirmationSchema,
  })
  .refine(...passwordsMatch<{ new_password: string; confirm_password: string }>((v) => v.new_password));
export type UpdatePassword = z.infer<typeof UpdatePasswordSchema>;

export const UserIdParamsSchema = z.object({ user_id: z.uuid({ error: userListMessages.invalidUserId }) });

export const userMessages = {
  emailTaken: 'The user with this email already exists in the system',
  notFound: 'User not found',
  superuserCannotDeleteSelf: 'Super users are not allowed to delete themselves',
  samePassword: 'New password cannot be the same as the current one',
  incorrectPassword: 'Incorrect password',
  notEnoughPrivileges: "The user doesn't have enough privileges",
  cannotChangeOwnSuperuser: 'You cannot change your own superuser status',
  cannotDeactivateSelf: 'You cannot deactivate your own account',
  cannotDeleteSelf: 'You cannot delete your own account',
  signupReceived: 'Your account is ready. You can log in now.',
  /** Sign-up refused while attempts cannot be counted (decision 049). */
  signupUnavailable: 'Sign-up is temporarily unavailable. Try again shortly.',
  deleted: 'User deleted successfully',
} as const;
