import type { PGliteInterface } from '@electric-sql/pglite';
import { is, Placeholder } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from './client.js';

/** What a Drizzle query builder gives `toSQL()`: its text and parameters, placeholders among them. */
interface BuiltQuery {
  toSQL(): { sql: string; params: unknown[] };
}

/**
 * A query Drizzle builds, run on the driver itself with its rows as arrays of column values, in the
 * select's order. Only for the statement every signed-in request runs (the session read): Drizzle's
 * execute wraps each call in tracing spans, placeholder filling, a row mapper and four more awaits,
 * 2–3 µs of the ~100 µs such a request costs the server (bench/README.md). Everything else goes
 * through Drizzle. On the PostgreSQL server the statement is prepared once per connection under `name`.
 */
export function prepareArrayRows<Values extends Record<string, unknown>>(
  db: Database,
  name: string,
  query: BuiltQuery,
): (values: Values) => Promise<unknown[][]> {
  const { sql: text, params } = query.toSQL();
  // Each parameter is a named placeholder filled per call, or a value fixed when the query was built.
  const fill = params.map((param) => (is(param, Placeholder) ? (values: Values) => values[param.name] : () => param));
  const valuesOf = (values: Values) => fill.map((take) => take(values));
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool) {
    return async (values) => {
      const result = await client.query<unknown[]>({ name, text, values: valuesOf(values), rowMode: 'array' });
      return result.rows;
    };
  }
  // The embedded database: PGlite parses the statement on each call, as Drizzle's PGlite driver does.
  const embedded = client as PGliteInterface;
  return async (values) => {
    const result = await embedded.query<unknown[]>(text, valuesOf(values), { rowMode: 'array' });
    return result.rows;
  };
}
