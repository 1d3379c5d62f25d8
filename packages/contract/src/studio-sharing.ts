import './zod-config.js';
import { z } from 'zod';
import { CHART_THEMES, CHART_WIDTH_DEFAULT, CHART_WIDTH_MAX, CHART_WIDTH_MIN } from './studio-charts-constants.js';
import { pageOf } from './common.js';
import {
  blockKind,
  REPORT_BLOCK_KINDS,
  REPORT_PAGE_SIZE_DEFAULT,
  type ReportBlock,
  REPORT_KPI_FORMATS,
  REPORT_PARAM_VALUE_MAX,
  ReportParamPublicSchema,
  ReportRunResultSchema,
  ReportRunSchema,
} from './studio-reports.js';

/*
 * Studio beyond the team (issue 58): who sees a report in its tenant, and read-only share links for
 * people without an account. A link shows one report alone: its blocks without their SQL, its
 * parameters with the link's fixed values locked.
 */

export const REPORT_VISIBILITIES = ['tenant', 'restricted'] as const;
/** Most members and roles a restricted report may name. */
export const REPORT_ACCESS_USERS_MAX = 200;
export const REPORT_ACCESS_ROLES_MAX = 50;
/** Most links a report may have that are neither revoked nor expired. */
export const REPORT_LINKS_MAX = 50;
/** The furthest a link's expiry may be set: a year. */
export const REPORT_LINK_LIFETIME_MAX_DAYS = 366;
/** Most origins a tenant may allow to embed its reports. */
export const EMBED_ORIGINS_MAX = 20;
/** The longest an embed token may live: they are short-lived by design. */
export const EMBED_TOKEN_LIFETIME_MAX_SECONDS = 24 * 3600;

export const sharingMessages = {
  notMember: 'Every person named must be a member of this tenant',
  unknownRole: 'Every role named must exist',
  tooManyLinks: `A report has at most ${REPORT_LINKS_MAX} live links: revoke one first`,
  expiryPast: 'The expiry must be in the future',
  expiryTooFar: `A link expires within ${REPORT_LINK_LIFETIME_MAX_DAYS} days`,
  linkNotFound: 'Link not found',
  linkGone: 'This link has been revoked or has expired: ask whoever shared it for a new one',
  paramLocked: 'This parameter is fixed by the link and cannot be changed',
  builtInShare: 'The built-in reports are every signed-in user’s already: share a copy of one instead',
  originInvalid: 'An origin is https://host or https://host:port (http only for localhost), without a path',
  embedTokenInvalid: 'The embed token is not valid: sign it with the tenant’s current embed secret (HS256)',
  embedTokenExpired: 'The embed token has expired: sign a new one',
  embedTokenTooLong: `An embed token lives at most ${EMBED_TOKEN_LIFETIME_MAX_SECONDS / 3600} hours: sign one that expires sooner`,
  embedOtherReport: 'The embed token names another report',
  embedOriginRefused: 'This origin may not embed the tenant’s reports: add it to the allowed origins',
  embedNoTenant: 'Choose a tenant with the X-Tenant-ID header: embedding is set per tenant',
} as const;

export const ReportVisibilitySchema = z.object({
  visibility: z.enum(REPORT_VISIBILITIES),
  /** Members of the tenant who see a restricted report (besides its creator); ignored for `tenant`. */
  user_ids: z.array(z.uuid()).max(REPORT_ACCESS_USERS_MAX).default([]),
  /** Roles whose holders (members of the tenant) see it. */
  role_ids: z.array(z.uuid()).max(REPORT_ACCESS_ROLES_MAX).default([]),
});
export type ReportVisibility = z.infer<typeof ReportVisibilitySchema>;

/** Most members `GET /studio/reports/{id}/audience` lists, by email: a picker, not a directory. */
export const REPORT_AUDIENCE_MEMBERS_MAX = 500;

/** `GET /studio/reports/{id}/audience`: whom an author may name when restricting a report. */
export const ReportAudienceSchema = z.object({
  members: z.array(z.object({ id: z.uuid(), email: z.string(), full_name: z.string().nullable() })),
  roles: z.array(z.object({ id: z.uuid(), name: z.string() })),
  /** More members than listed: the rest are found by email in the admin console. */
  members_truncated: z.boolean(),
});
export type ReportAudience = z.infer<typeof ReportAudienceSchema>;

const ParamValueSchema = z.union([z.string().max(REPORT_PARAM_VALUE_MAX), z.number(), z.boolean()]);

export const ReportLinkCreateSchema = z.object({
  /** When the link stops working; omitted: never (until revoked). */
  expires_at: z.iso.datetime({ offset: true }).optional(),
  /** Parameter values fixed for every run through the link. */
  params: z.record(z.string().max(63), ParamValueSchema).default({}),
});
export type ReportLinkCreate = z.infer<typeof ReportLinkCreateSchema>;

export const ReportLinkSchema = z.object({
  id: z.uuid(),
  report_id: z.uuid(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  expires_at: z.iso.datetime().nullable(),
  revoked_at: z.iso.datetime().nullable(),
  created_by: z.uuid().nullable(),
  created_at: z.iso.datetime(),
  /** Neither revoked nor expired. */
  active: z.boolean(),
});
export type ReportLink = z.infer<typeof ReportLinkSchema>;
/** A link as made: the only time its token is told (only its hash is kept). */
export const ReportLinkCreatedSchema = ReportLinkSchema.extend({
  token: z.string(),
  /** The page that shows the report: `FRONTEND_HOST/s/{token}`. */
  url: z.string(),
});
export type ReportLinkCreated = z.infer<typeof ReportLinkCreatedSchema>;
export const ReportLinksSchema = pageOf(ReportLinkSchema);
export type ReportLinks = z.infer<typeof ReportLinksSchema>;

export const ReportLinkIdParamsSchema = z.object({ link_id: z.uuid() });
export const ShareTokenParamsSchema = z.object({ token: z.string().min(1).max(200) });

/**
 * A block as a shared report shows it: what to draw, never the SQL behind it. A signed-in report's
 * block (ReportBlockPublic) is one too, with its SQL: the web app's viewers draw either.
 */
export const SharedBlockSchema = z.object({
  id: z.string(),
  kind: z.enum(REPORT_BLOCK_KINDS),
  title: z.string().nullable(),
  kpi: z
    .object({ value: z.string(), format: z.enum(REPORT_KPI_FORMATS).optional(), label: z.string().optional() })
    .optional(),
  chart: z.object({ spec: z.record(z.string(), z.unknown()) }).optional(),
  table: z.object({ page_size: z.number().int() }).optional(),
  html: z.string().optional(),
});
export type SharedBlock = z.infer<typeof SharedBlockSchema>;

/** A definition's block as the viewers draw it: its SQL left out, a text block's Markdown as `textHtml` makes it. */
export function sharedReportBlock(block: ReportBlock, textHtml: (markdown: string) => string): SharedBlock {
  const base = { id: block.id, kind: blockKind(block), title: block.title ?? null };
  if (block.kpi) {
    const { value, format, label } = block.kpi;
    return { ...base, kpi: { value, ...(format ? { format } : {}), ...(label ? { label } : {}) } };
  }
  if (block.chart) return { ...base, chart: { spec: block.chart.spec } };
  if (block.table) return { ...base, table: { page_size: block.table.page_size ?? REPORT_PAGE_SIZE_DEFAULT } };
  return { ...base, html: textHtml(block.text ?? '') };
}

/**
 * `GET /studio/public/{token}`: the report a link shows and, in `first_runs`, what its viewer asks for
 * first (`runRequestOf` each block at the shown values, first page) already run, so that opening a link is
 * one call however many blocks it has. A block whose run failed is left out: the viewer asks for it.
 */
export const SharedReportSchema = z.object({
  title: z.string(),
  description: z.string().nullable(),
  /** Select options come from the definition only (a query's options are not run for a link). */
  params: z.array(ReportParamPublicSchema.omit({ options_sql: true }).extend({ locked: z.boolean() })),
  blocks: z.array(SharedBlockSchema),
  expires_at: z.iso.datetime().nullable(),
  first_runs: z.array(z.object({ request: ReportRunSchema, result: ReportRunResultSchema })),
});
export type SharedReport = z.infer<typeof SharedReportSchema>;

export const SharedRunSchema = ReportRunSchema;

/** `PUT /studio/embed/settings`: the origins allowed to frame the tenant's reports. */
export const EmbedSettingsUpdateSchema = z.object({
  origins: z.array(z.string().max(253)).max(EMBED_ORIGINS_MAX),
});
export const EmbedSettingsSchema = z.object({
  origins: z.array(z.string()),
  /** Whether a secret has been made (it is shown once, when made). */
  secret_set: z.boolean(),
  secret_created_at: z.iso.datetime().nullable(),
});
export type EmbedSettings = z.infer<typeof EmbedSettingsSchema>;
/** `POST /studio/embed/secret`: the new secret, told this once. */
export const EmbedSecretSchema = z.object({ secret: z.string(), created_at: z.iso.datetime() });
export type EmbedSecret = z.infer<typeof EmbedSecretSchema>;

/** The embedded viewer's calls: the report in the page's path and the token its iframe was given. */
const EmbedTokenFields = { report_id: z.uuid(), token: z.string().min(1).max(8_000) };
export const EmbedViewSchema = z.object(EmbedTokenFields);
export const EmbedRunSchema = ReportRunSchema.extend(EmbedTokenFields);
export type EmbedRun = z.infer<typeof EmbedRunSchema>;
/**
 * `POST /studio/embed/charts/{block}.svg|png`: a chart of the embedded report drawn by the server; the
 * token travels in the body, as in the other embed calls, never in a URL.
 */
export const EmbedChartSchema = z.object({
  ...EmbedTokenFields,
  params: EmbedRunSchema.shape.params,
  theme: z.enum(CHART_THEMES).default('light'),
  width: z.number().int().min(CHART_WIDTH_MIN).max(CHART_WIDTH_MAX).default(CHART_WIDTH_DEFAULT),
});
export type EmbedChart = z.infer<typeof EmbedChartSchema>;
export const EmbedChartParamsSchema = z.object({ block: z.string().min(1).max(100) });
