import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, ownerId, timestamptz, updatedAt } from './columns.js';
import { tenants } from './tenants.js';
import { roles } from './authz.js';
import { users } from './users.js';

/**
 * Studio reports of a tenant: the current version's title, description and source kept beside the
 * slug for lists; the text of every version lives in `report_versions`. The built-in reports are not
 * rows: they ship with the server (modules/studio/built-in-reports).
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: ownerId('tenant_id', () => tenants.id),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    source: text('source', { enum: ['demo', 'tenant', 'extract'] }).notNull(),
    /** `tenant`: every member sees it; `restricted`: only those `report_access` names (issue 58). */
    visibility: text('visibility', { enum: ['tenant', 'restricted'] })
      .notNull()
      .default('tenant'),
    /** The newest version; a save names it, and a stale one is refused (report_conflict). */
    currentVersion: integer('current_version').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('reports_source_check', sql`${t.source} in ('demo', 'tenant', 'extract')`),
    check('reports_visibility_check', sql`${t.visibility} in ('tenant', 'restricted')`),
    uniqueIndex('reports_tenant_id_slug_unique').on(t.tenantId, t.slug),
    // A tenant's list, by title then id (pages never overlap).
    index('reports_tenant_id_title_idx').on(t.tenantId, t.title, t.id),
  ],
);

/** Every save of a report: its whole text, who saved it and when. */
export const reportVersions = pgTable(
  'report_versions',
  {
    reportId: ownerId('report_id', () => reports.id),
    version: integer('version').notNull(),
    definition: text('definition').notNull(),
    title: text('title').notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** The version this one copied back (a restore), else null. */
    restoredFrom: integer('restored_from'),
    /** Saved from an agent's answer (issue 56): its block was drafted with the agent. */
    draftedWithAgent: boolean('drafted_with_agent').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.reportId, t.version] }),
    check('report_versions_version_check', sql`${t.version} >= 1`),
  ],
);

/** Who sees a `restricted` report besides its creator: named members, and holders of named roles. */
export const reportAccess = pgTable(
  'report_access',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reportId: ownerId('report_id', () => reports.id),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id').references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [
    check('report_access_one_check', sql`(${t.userId} IS NULL) <> (${t.roleId} IS NULL)`),
    index('report_access_report_id_idx').on(t.reportId),
  ],
);

/**
 * Read-only links to one report for people without an account (issue 58): only the token's
 * SHA-256 is kept; `params` are values fixed for every run through the link.
 */
export const reportLinks = pgTable(
  'report_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reportId: ownerId('report_id', () => reports.id),
    tenantId: ownerId('tenant_id', () => tenants.id),
    tokenHash: text('token_hash').notNull(),
    params: jsonb('params').$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    expiresAt: timestamptz('expires_at'),
    revokedAt: timestamptz('revoked_at'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('report_links_token_hash_unique').on(t.tokenHash),
    index('report_links_report_id_idx').on(t.reportId),
  ],
);
