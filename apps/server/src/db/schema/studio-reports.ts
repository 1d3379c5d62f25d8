import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ownerId, timestamptz, updatedAt } from './columns.js';
import { tenants } from './tenants.js';
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
    /** The newest version; a save names it, and a stale one is refused (report_conflict). */
    currentVersion: integer('current_version').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('reports_source_check', sql`${t.source} in ('demo', 'tenant', 'extract')`),
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
