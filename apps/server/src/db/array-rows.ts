import type { PGliteInterface } from '@electric-sql/pglite';
import { is, Param, Placeholder } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from './client.js';

/** What a Drizzle query builder gives `toSQL()`: its text and parameters, placeholders among them. */
interface BuiltQuery {
  toSQL(): { sql: string; params: unknown[] };
}

/**
 * A query Drizzle builds, run on the driver itself with its rows as arrays of column values, in the
 * select's order. Only for the hot paths: the statement every signed-in request runs (the session
 * read) and a sign-in's two (its credentials, its session insert). Drizzle's execute wraps each
 * call in tracing spans, placeholder filling, value mapping, a row mapper and four more awaits:
 * 2–3 µs of the ~100 µs a signed-in request costs the server, and about 0.1 ms of a sign-in's 1.35
 * ms of event-loop time, where the hash threads leave the loop little room (bench/README.md).
 * Everything else goes through Drizzle. On the PostgreSQL server the statement is prepared once per connection under `name`.
 */
export function prepareArrayRows<Values extends Record<string, unknown>>(
  db: Database,
  name: string,
  query: BuiltQuery,
): (values: Values) => Promise<unknown[][]> {
  const { sql: text, params } = query.toSQL();
  // Each parameter is a named placeholder filled per call, or a value fixed when the query was built;
  // an insert's values come wrapped in a Param with their column's encoder, which is not applied:
  // the values given must already be what the driver sends (strings for times, see open_session).
  const fill = params.map((param) => {
    const inner: unknown = is(param, Param) ? param.value : param;
    return is(inner, Placeholder) ? (values: Values) => values[inner.name] : () => inner;
  });
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
