import { and, eq, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.js';
import { rowCounts } from '../db/schema/index.js';

/**
 * The grains each counted table keeps in `row_counts`: the columns it is counted by (`''`: the
 * whole table). They are the arguments of the table's `row_counts_apply` triggers (migration 0011);
 * a test holds the two to each other. Decision 052 says why these.
 */
export const COUNTED_GRAINS: Readonly<Record<string, readonly string[]>> = {
  users: [''],
  contact_submissions: ['status'],
  transactions: ['user_id'],
  audit_log: ['target_type', 'action', 'actor_id'],
  tenants: ['status'],
};

/** A `column = value` condition of a list. */
export type ColumnMatch = readonly [column: PgColumn, value: string];

export function matchAll(matches: readonly ColumnMatch[]): SQL | undefined {
  return matches.length === 0 ? undefined : and(...matches.map(([column, value]) => eq(column, value)));
}

/**
 * How many rows of `table` match every `column = value` of `matches`, read from `row_counts`, or
 * undefined when the table keeps no count by exactly those columns. It sums the count's stripes;
 * with no condition, every stripe of every scope of the table's first grain, in which every row is
 * counted once (so the first grain is the one with the fewest scopes).
 */
export function countedRows(db: DbOrTx, table: PgTable, matches: readonly ColumnMatch[]): Promise<number> | undefined {
  const tableName = getTableName(table);
  const grains = COUNTED_GRAINS[tableName];
  if (!grains) return undefined;
  const total = sql<number>`coalesce(sum(${rowCounts.n}), 0)`.mapWith(Number);
  const columns = matches.map(([column]) => column.name);
  const grain =
    matches.length === 0
      ? grains[0]
      : grains.find((candidate) => {
          const counted = candidate.split(',');
          return counted.length === columns.length && counted.every((name) => columns.includes(name));
        });
  if (grain === undefined) return undefined;
  const conditions = [eq(rowCounts.tableName, tableName), eq(rowCounts.grain, grain)];
  if (matches.length > 0) {
    // Built as the trigger builds it, each value cast to its column's type: a uuid in capitals
    // names the same scope as the one the database wrote.
    const pairs = matches.map(
      ([column, value]) => sql`${column.name}::text, ${value}::${sql.raw(column.getSQLType())}`,
    );
    conditions.push(sql`${rowCounts.scope} = jsonb_build_object(${sql.join(pairs, sql`, `)})`);
  }
  return db
    .select({ total })
    .from(rowCounts)
    .where(and(...conditions))
    .then(([row]) => row?.total ?? 0);
}
