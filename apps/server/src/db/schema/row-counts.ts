import { bigint, jsonb, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';

/**
 * How many rows a listed table holds, kept by triggers in the same transaction as every insert,
 * delete and update of that table (migration 0011, decision 052), so a list's `count` is read
 * here instead of counting the table. One row per table, grain and scope:
 *
 * - `grain`: the columns counted by, comma-separated (`''`: the whole table);
 * - `scope`: their values, e.g. `{"status": "new"}` (`{}` for the whole table);
 * - `stripe`: which of 16 rows of that count the writing connection adds to (its backend pid
 *   modulo 16), so concurrent writers rarely wait on one another's row lock. The count is the sum of
 *   its stripes; one stripe alone may be negative (rows added through one connection, deleted
 *   through another).
 *
 * `lib/row-counts.ts` declares which grains each table keeps; a test holds the triggers to it.
 */
export const rowCounts = pgTable(
  'row_counts',
  {
    tableName: text('table_name').notNull(),
    grain: text('grain').notNull(),
    scope: jsonb('scope').$type<Record<string, string | null>>().notNull(),
    stripe: smallint('stripe').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tableName, t.grain, t.scope, t.stripe] })],
);
