import { sql } from 'drizzle-orm';
import { bigint, check, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ownerId } from './columns.js';
import { tenants } from './tenants.js';
import { users } from './users.js';

/**
 * Studio extracts of a tenant: each an uploaded CSV or Parquet file that DuckDB typed and stored as
 * one table (the file `studio/extracts/{tenant_id}/{id}.duckdb` under the data folder), named `name`
 * in the tenant's `extract` source. The columns are kept here so lists need no DuckDB.
 */
export const studioExtracts = pgTable(
  'studio_extracts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: ownerId('tenant_id', () => tenants.id),
    name: text('name').notNull(),
    format: text('format', { enum: ['csv', 'parquet'] }).notNull(),
    /** Size of the uploaded file. */
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    rows: bigint('rows', { mode: 'number' }).notNull(),
    columns: jsonb('columns').$type<{ name: string; type: string }[]>().notNull(),
    /**
     * SHA-256 of the extract's DuckDB file, which names its object in the store
     * (`{tenant}/{id}.{sha256}.duckdb`); null for one stored before names carried it (`{tenant}/{id}.duckdb`).
     */
    sha256: text('sha256'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('studio_extracts_format_check', sql`${t.format} in ('csv', 'parquet')`),
    uniqueIndex('studio_extracts_tenant_id_name_unique').on(t.tenantId, t.name),
  ],
);
