// First: Zod's settings must be in place before any schema is built.
import '@dataplatform/contract/zod-config';
import {
  authzMessages,
  DESCRIPTION_MAX_LENGTH,
  EmailSchema,
  isPostgresUrl,
  TENANT_DBURL_MAX,
  TENANT_DESCRIPTION_MAX,
  tenantMessages,
  FULL_NAME_MAX_LENGTH,
  messages,
  PasswordSchema,
  PermissionCreateSchema,
  RoleCreateSchema,
  SSO_CLIENT_SECRET_MAX,
  SsoConnectionCreateSchema,
  SsoDomainsSchema,
  ssoMessages,
  TenantCreateSchema,
} from '@dataplatform/contract';
import { z } from 'zod';

/** An optional text: blank becomes null. */
function optionalText(max: number, tooLong: string) {
  return z
    .string()
    .trim()
    .max(max, tooLong)
    .transform((value) => (value === '' ? null : value));
}

const AdminFullNameSchema = optionalText(FULL_NAME_MAX_LENGTH, messages.fullNameTooLong);

/** "Create New User": email, full name, password, Active (checked), Admin (unchecked). */
export const UserCreateFormSchema = z.object({
  email: EmailSchema,
  full_name: AdminFullNameSchema,
  password: PasswordSchema,
  is_active: z.boolean(),
  is_superuser: z.boolean(),
});
export type UserCreateFormValues = z.input<typeof UserCreateFormSchema>;

/** "Edit User": email, full name, Active, Admin. */
export const UserEditFormSchema = UserCreateFormSchema.omit({ password: true });
export type UserEditFormValues = z.input<typeof UserEditFormSchema>;

/** Role dialogs: name (required) and description. */
export const RoleFormSchema = z.object({
  name: RoleCreateSchema.shape.name,
  description: optionalText(DESCRIPTION_MAX_LENGTH, authzMessages.descriptionTooLong),
});

/** Permission dialogs: name (required) and description. */
export const PermissionFormSchema = z.object({
  name: PermissionCreateSchema.shape.name,
  description: optionalText(DESCRIPTION_MAX_LENGTH, authzMessages.descriptionTooLong),
});

/** Tenant dialogs: name, description, database URL (blank for none) and Active (the status). */
export const TenantFormSchema = z
  .object({
    name: TenantCreateSchema.shape.name,
    description: optionalText(TENANT_DESCRIPTION_MAX, tenantMessages.descriptionTooLong),
    dburl: z
      .string()
      .trim()
      .max(TENANT_DBURL_MAX, tenantMessages.dburlTooLong)
      .refine((value) => value === '' || isPostgresUrl(value), tenantMessages.dburlInvalid)
      .transform((value) => (value === '' ? null : value)),
    active: z.boolean(),
  })
  .transform(({ active, ...rest }) => ({ ...rest, status: active ? ('active' as const) : ('inactive' as const) }));
export type TenantFormValues = z.input<typeof TenantFormSchema>;
export type TenantFormOutput = z.output<typeof TenantFormSchema>;

/** "Example.com, b.org" -> ["example.com", "b.org"], checked by the contract's rule. */
const DomainsTextSchema = z
  .string()
  .transform((value) => value.split(/[\s,]+/).filter((domain) => domain !== ''))
  .pipe(SsoDomainsSchema);

const ssoFormFields = {
  name: SsoConnectionCreateSchema.shape.name,
  issuer: SsoConnectionCreateSchema.shape.issuer,
  client_id: SsoConnectionCreateSchema.shape.client_id,
  domains: DomainsTextSchema,
  /** '' is the global connection. */
  tenant_id: z.string().transform((value) => (value === '' ? null : value)),
  allow_password_recovery: z.boolean(),
};

/** "Add Connection": every field; the client secret is required. */
export const SsoConnectionCreateFormSchema = z.object({
  ...ssoFormFields,
  client_secret: SsoConnectionCreateSchema.shape.client_secret,
});

/** "Edit Connection": the secret is write-only; left blank, the stored one stays (SSO-1). */
export const SsoConnectionEditFormSchema = z.object({
  ...ssoFormFields,
  client_secret: z
    .string()
    .max(SSO_CLIENT_SECRET_MAX, ssoMessages.clientSecretRequired)
    .transform((value) => (value === '' ? undefined : value)),
});
export type SsoConnectionFormValues = z.input<typeof SsoConnectionEditFormSchema>;
