import type { PaginationQuery } from '@dataplatform/contract';
import { and, count, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.js';
import { countedRows, matchAll, type ColumnMatch } from './row-counts.js';

/** One page of a list and how many items the whole list holds: the shape every list answers. */
export interface Page<T> {
  data: T[];
  count: number;
}

export interface ListQuery {
  /** `column = value` conditions, all of which a row must meet. */
  match?: readonly ColumnMatch[];
  /** Any other condition (a search). */
  where?: SQL | undefined;
  /** Must end in a unique column, so pages never overlap. */
  orderBy: (PgColumn | SQL)[];
}

/**
 * The one way a list is paged: `page.limit` rows of `table` meeting `query.match` and
 * `query.where`, after skipping `page.skip`, in `query.orderBy` order, and the number of all
 * matching rows, read side by side. The number is exact either way: read from `row_counts` when
 * the table keeps a count by exactly the matched columns and there is no other condition
 * (decision 052), else counted (through an index that serves the condition).
 */
export async function paginate<TTable extends PgTable>(
  db: DbOrTx,
  table: TTable,
  query: ListQuery,
  page: PaginationQuery,
): Promise<Page<TTable['$inferSelect']>> {
  // Drizzle's types cannot follow a generic table through a query; the rows are the table's own.
  const source: PgTable = table;
  const matches = query.match ?? [];
  const where = and(matchAll(matches), query.where);
  const counted = query.where === undefined ? countedRows(db, source, matches) : undefined;
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(source)
      .where(where)
      .orderBy(...query.orderBy)
      .offset(page.skip)
      .limit(page.limit),
    counted ??
      db
        .select({ total: count() })
        .from(source)
        .where(where)
        .then(([row]) => row?.total ?? 0),
  ]);
  return { data: rows, count: total };
}

/** The same page with each item turned into its public shape. */
export function mapPage<T, U>(page: Page<T>, map: (item: T) => U): Page<U> {
  return { data: page.data.map(map), count: page.count };
}

/** A list that is never paged (a user's roles, the plans, one's cards): every item, and their number. */
export function wholeList<T, U>(rows: T[], map: (item: T) => U): Page<U> {
  return { data: rows.map(map), count: rows.length };
}
