import './zod-config.js';
import { z } from 'zod';
import { pageOf } from './common.js';
import {
  TENANT_NAME_MAX,
  TENANT_DESCRIPTION_MAX,
  TENANT_DBURL_MAX,
  TENANT_STATUSES,
  tenantMessages,
  TENANT_MEMBERS_MAX,
} from './tenants-constants.js';

export * from './tenants-constants.js';

export const TenantStatusSchema = z.enum(TENANT_STATUSES);
/** @public Part of the contract for API clients, though no code of this repository names it. */
export type TenantStatus = z.infer<typeof TenantStatusSchema>;

/** scheme://[user[:password]@]host[:port][/database][?params], host a name, IPv4 or [IPv6]. */
const POSTGRES_URL =
  /^postgres(?:ql)?:\/\/(?:[^@/?#\s]*@)?(?:\[[0-9a-fA-F:.]+\]|[^:/?#\s@[\]]+)(?::\d{1,5})?(?:\/[^?#\s]*)?(?:\?[^#\s]*)?$/;

/** A PostgreSQL connection URL with a host; the web form and the server validate alike. */
export function isPostgresUrl(value: string): boolean {
  return POSTGRES_URL.test(value);
}

const TenantNameSchema = z
  .string({ error: tenantMessages.nameRequired })
  .trim()
  .min(1, tenantMessages.nameRequired)
  .max(TENANT_NAME_MAX, tenantMessages.nameTooLong);

const TenantDescriptionSchema = z
  .string()
  .trim()
  .max(TENANT_DESCRIPTION_MAX, tenantMessages.descriptionTooLong)
  .transform((value) => (value === '' ? null : value))
  .nullish();

/** Blank means "no database"; otherwise a PostgreSQL URL (its password may be the mask on update). */
const TenantDburlSchema = z
  .string({ error: tenantMessages.dburlInvalid })
  .trim()
  .max(TENANT_DBURL_MAX, tenantMessages.dburlTooLong)
  .refine((value) => value === '' || isPostgresUrl(value), tenantMessages.dburlInvalid)
  .transform((value) => (value === '' ? null : value))
  .nullish();

/** `POST /tenants/` */
export const TenantCreateSchema = z.object({
  name: TenantNameSchema,
  description: TenantDescriptionSchema,
  status: TenantStatusSchema.default('active'),
  dburl: TenantDburlSchema,
});
export type TenantCreate = z.infer<typeof TenantCreateSchema>;

/**
 * `PUT /tenants/{tenant_id}`: the same fields; an omitted one stays as it is. Sending back the masked
 * `dburl` from a response keeps the stored password; `null` or "" removes the URL.
 */
export const TenantUpdateSchema = z.object({
  name: TenantNameSchema.optional(),
  description: TenantDescriptionSchema,
  status: TenantStatusSchema.optional(),
  dburl: TenantDburlSchema,
});
export type TenantUpdate = z.infer<typeof TenantUpdateSchema>;

export const TenantPublicSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  status: TenantStatusSchema,
  /** Password replaced by the mask. */
  dburl: z.string().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type TenantPublic = z.infer<typeof TenantPublicSchema>;
export const TenantsPublicSchema = pageOf(TenantPublicSchema);
export type TenantsPublic = z.infer<typeof TenantsPublicSchema>;

/** What a member sees of a tenant in the tenant switcher (`GET /users/me/tenants`). */
export const TenantSummarySchema = TenantPublicSchema.pick({ id: true, name: true, description: true, status: true });
export type TenantSummary = z.infer<typeof TenantSummarySchema>;
export const TenantSummariesSchema = pageOf(TenantSummarySchema);
export type TenantSummaries = z.infer<typeof TenantSummariesSchema>;

export const TenantIdParamsSchema = z.object({ tenant_id: z.uuid({ error: 'Invalid tenant id' }) });

/** `GET` and `PUT /tenants/{tenant_id}/members`: the member user ids (PUT replaces the whole set). */
export const TenantMembersSchema = z.array(z.uuid({ error: 'Invalid user id' })).max(TENANT_MEMBERS_MAX);
export type TenantMembers = z.infer<typeof TenantMembersSchema>;

/** `POST /tenants/{tenant_id}/check-connection` */
export const TenantConnectionCheckSchema = z.union([
  z.object({ ok: z.literal(true), latency_ms: z.number(), server_version: z.string() }),
  z.object({ ok: z.literal(false), detail: z.string() }),
]);
export type TenantConnectionCheck = z.infer<typeof TenantConnectionCheckSchema>;

/** `GET /tenants/current/tables`: what the selected tenant's own database holds. */
export const TenantTableSchema = z.object({
  schema: z.string(),
  name: z.string(),
  type: z.enum(['table', 'view']),
});
/** @public Part of the contract for API clients, though no code of this repository names it. */
export type TenantTable = z.infer<typeof TenantTableSchema>;
export const TenantTablesSchema = pageOf(TenantTableSchema);
export type TenantTables = z.infer<typeof TenantTablesSchema>;
