import './zod-config.js';
import { z } from 'zod';
import { pageOf } from './common.js';
import { EmailSchema } from './fields.js';
import {
  SSO_NAME_MAX,
  SSO_ISSUER_MAX,
  SSO_CLIENT_ID_MAX,
  SSO_CLIENT_SECRET_MAX,
  SSO_DOMAINS_MAX,
  SSO_DOMAIN_MAX,
  ssoMessages,
  type SSO_CALLBACK_ERRORS,
} from './sso-constants.js';

export * from './sso-constants.js';

export type SsoCallbackError = keyof typeof SSO_CALLBACK_ERRORS;

/** https with a host name, or http on this machine (a test or development provider); no credentials, query or fragment. */
const ISSUER_URL =
  /^(?:https:\/\/[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?|http:\/\/(?:localhost|127\.0\.0\.1|\[::1\]))(?::\d{1,5})?(?:\/[^\s?#@]*)?$/i;

export function isIssuerUrl(value: string): boolean {
  return ISSUER_URL.test(value);
}

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function isEmailDomain(value: string): boolean {
  return DOMAIN.test(value);
}

/** "Example.com, b.org" or ["Example.com"] -> ["example.com", "b.org"]; the form types a list. */
export const SsoDomainsSchema = z
  .array(z.string().trim().toLowerCase().max(SSO_DOMAIN_MAX, ssoMessages.domainInvalid), {
    error: ssoMessages.domainsRequired,
  })
  .min(1, ssoMessages.domainsRequired)
  .max(SSO_DOMAINS_MAX, ssoMessages.domainsTooMany)
  .refine((domains) => domains.every(isEmailDomain), ssoMessages.domainInvalid)
  .transform((domains) => [...new Set(domains)]);

const NameSchema = z
  .string({ error: ssoMessages.nameRequired })
  .trim()
  .min(1, ssoMessages.nameRequired)
  .max(SSO_NAME_MAX, ssoMessages.nameTooLong);
const IssuerSchema = z
  .string({ error: ssoMessages.issuerInvalid })
  .trim()
  .max(SSO_ISSUER_MAX, ssoMessages.issuerInvalid)
  .refine(isIssuerUrl, ssoMessages.issuerInvalid);
const ClientIdSchema = z
  .string({ error: ssoMessages.clientIdRequired })
  .trim()
  .min(1, ssoMessages.clientIdRequired)
  .max(SSO_CLIENT_ID_MAX, ssoMessages.clientIdRequired);
const ClientSecretSchema = z
  .string({ error: ssoMessages.clientSecretRequired })
  .min(1, ssoMessages.clientSecretRequired)
  .max(SSO_CLIENT_SECRET_MAX, ssoMessages.clientSecretRequired);

/** `POST /sso/connections` (SSO-1). The secret is write-only: no answer ever carries it. */
export const SsoConnectionCreateSchema = z.object({
  name: NameSchema,
  issuer: IssuerSchema,
  client_id: ClientIdSchema,
  client_secret: ClientSecretSchema,
  domains: SsoDomainsSchema,
  /** null: a global connection; otherwise accounts it creates join this tenant. */
  tenant_id: z.uuid({ error: ssoMessages.tenantNotFound }).nullable().default(null),
  allow_password_recovery: z.boolean().default(false),
});
export type SsoConnectionCreate = z.infer<typeof SsoConnectionCreateSchema>;

/** `PUT /sso/connections/{connection_id}`: omitted fields (the secret above all) stay as they are. */
export const SsoConnectionUpdateSchema = z.object({
  name: NameSchema.optional(),
  issuer: IssuerSchema.optional(),
  client_id: ClientIdSchema.optional(),
  client_secret: ClientSecretSchema.optional(),
  domains: SsoDomainsSchema.optional(),
  tenant_id: z.uuid({ error: ssoMessages.tenantNotFound }).nullable().optional(),
  allow_password_recovery: z.boolean().optional(),
});
export type SsoConnectionUpdate = z.infer<typeof SsoConnectionUpdateSchema>;

export const SsoConnectionPublicSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  domains: z.array(z.string()),
  tenant_id: z.uuid().nullable(),
  allow_password_recovery: z.boolean(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type SsoConnectionPublic = z.infer<typeof SsoConnectionPublicSchema>;
export const SsoConnectionsPublicSchema = pageOf(SsoConnectionPublicSchema);
export type SsoConnectionsPublic = z.infer<typeof SsoConnectionsPublicSchema>;

export const SsoConnectionIdParamsSchema = z.object({ connection_id: z.uuid({ error: 'Invalid connection id' }) });

/** `POST /sso/start`: the person's e-mail picks the connection by its domain. */
export const SsoStartSchema = z.object({ email: EmailSchema });
export const SsoStartResponseSchema = z.object({ authorization_url: z.url() });

const HandoffCodeSchema = z.string({ error: ssoMessages.invalidCode }).min(1).max(128);

/** `POST /sso/exchange`: the one-time code from `/login/sso#code=…`. */
export const SsoExchangeSchema = z.object({ code: HandoffCodeSchema });
export const SsoExchangeResponseSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signed_in'), access_token: z.string(), token_type: z.literal('bearer') }),
  /** An account with this address exists: its password must be given once to link it (SSO-5). */
  z.object({ status: z.literal('link_required'), email: z.string() }),
]);
export type SsoExchangeResponse = z.infer<typeof SsoExchangeResponseSchema>;

/** `POST /sso/link` */
export const SsoLinkSchema = z.object({
  code: HandoffCodeSchema,
  password: z.string({ error: ssoMessages.incorrectPassword }).min(1, ssoMessages.incorrectPassword).max(128),
});
export type SsoLink = z.infer<typeof SsoLinkSchema>;
