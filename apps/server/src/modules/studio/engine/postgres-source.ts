import type pg from 'pg';
import { AppError, describeError } from '../../../lib/errors.js';
import { streamRows, tooLargeToExport } from './row-stream.js';
import { firstLine, pageOrderBy, queryTimedOut, refused, tooLargeForCap, wrapResult } from './sql-text.js';
import type { ParamValue, RowStream, StoredResult } from './types.js';

/** What one run on a tenant's PostgreSQL database needs (the text already passed the guard). */
export interface PostgresExecution {
  /** One SELECT with `$1…$n` placeholders. */
  text: string;
  values: ParamValue[];
  shape: 'page' | 'capped';
  skip: number;
  limit: number;
  sort: { column: string; direction: 'asc' | 'desc' }[];
  rowCap: number;
  timeoutMs: number;
  signal: AbortSignal;
}

/** Values as JSON wants them: 64-bit integers as numbers when exact, numerics as numbers, dates as text. */
function parserFor(oid: number): (value: string) => unknown {
  switch (oid) {
    case 16:
      return (value) => value === 't';
    case 21:
    case 23:
    case 26:
    case 700:
    case 701:
    case 1700:
      return Number;
    case 20:
      return (value) => {
        const number = Number(value);
        return Number.isSafeInteger(number) ? number : value;
      };
    case 114:
    case 3802:
      return (value) => JSON.parse(value) as unknown;
    case 1114:
      return (value) => value.replace(' ', 'T');
    default:
      return (value) => value;
  }
}

const typeConfig = { getTypeParser: parserFor };

/**
 * Runs one guarded SELECT in a READ ONLY transaction with `statement_timeout` (PostgreSQL stops it,
 * not only the HTTP answer); the abort signal cancels it in the server with pg_cancel_backend.
 */
export async function executePostgres(pool: pg.Pool, execution: PostgresExecution): Promise<StoredResult> {
  const session = await stoppableSession(pool);
  const { client } = session;
  let cancelled = false;
  const cancel = () => {
    cancelled = true;
    session.stop();
  };
  execution.signal.addEventListener('abort', cancel, { once: true });
  let broken = false;
  try {
    if (execution.signal.aborted) throw new AppError('query_refused', 'The query was cancelled.');
    await session.query('BEGIN TRANSACTION READ ONLY');
    await session.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(execution.timeoutMs))}`);
    await session.query('SET LOCAL idle_in_transaction_session_timeout = 60000');
    const wrapped = wrapResult(execution.text);
    const run = (text: string) =>
      session.query<unknown[]>({ text, values: execution.values, rowMode: 'array', types: typeConfig });
    const shape = await run(`SELECT * FROM ${wrapped} LIMIT 0`);
    const columns = await describeColumns(session, shape.fields);
    let stored: StoredResult;
    if (execution.shape === 'capped') {
      const result = await run(`SELECT * FROM ${wrapped} LIMIT ${execution.rowCap + 1}`);
      if (result.rows.length > execution.rowCap) throw tooLargeForCap(execution.rowCap);
      stored = { columns, rows: result.rows, count: result.rows.length };
    } else {
      const orderBy = pageOrderBy(
        columns.map((column) => column.name),
        execution.sort,
      );
      const counted = await run(`SELECT count(*) FROM ${wrapped}`);
      const page = await run(`SELECT * FROM ${wrapped}${orderBy} LIMIT ${execution.limit} OFFSET ${execution.skip}`);
      stored = { columns, rows: page.rows, count: Number(counted.rows[0]?.[0] ?? 0) };
    }
    await session.query('COMMIT');
    return stored;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw postgresFailure(error, cancelled, execution.timeoutMs);
  } finally {
    execution.signal.removeEventListener('abort', cancel);
    client.release(broken);
  }
}

/**
 * What a failure means to the caller: stopped by `statement_timeout` or our own cancel, the query's
 * own error (it has a SQLSTATE), or else the source's failure (a broken connection or pool), kept as is.
 */
function postgresFailure(error: unknown, cancelled: boolean, timeoutMs: number): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code;
  const message = describeError(error);
  if (code === '57014') {
    if (cancelled) return new AppError('query_refused', 'The query was cancelled.');
    return queryTimedOut(timeoutMs);
  }
  if (typeof code === 'string' && !code.startsWith('08') && !code.startsWith('57P')) {
    return refused(`The query failed: ${firstLine(message)}`);
  }
  return error;
}

/** Each pooled connection's server process, asked once (`pg_backend_pid()`), for `pg_cancel_backend`. */
const backendPids = new WeakMap<pg.PoolClient, number>();

interface StoppableSession {
  client: pg.PoolClient;
  /** The client's own `query`, refused once stopped. */
  query: pg.PoolClient['query'];
  /** Cancels the statement running in the server and refuses every later one. */
  stop(): void;
}

/**
 * A pooled connection whose work can be stopped from outside. `pg_cancel_backend` ends only the
 * statement running at that moment: a stop that lands between two statements would be lost and the
 * next one run to its time limit, so once stopped no statement is sent at all.
 */
async function stoppableSession(pool: pg.Pool): Promise<StoppableSession> {
  const client = await pool.connect();
  let pid = backendPids.get(client);
  if (pid === undefined) {
    try {
      pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
    } catch (error) {
      client.release(true);
      throw error;
    }
    if (pid !== undefined) backendPids.set(client, pid);
  }
  let stopped = false;
  return {
    client,
    query: ((config: string | pg.QueryConfig, values?: unknown[]) => {
      if (stopped) return Promise.reject(new AppError('query_refused', 'The query was cancelled.'));
      return client.query(config, values);
    }) as pg.PoolClient['query'],
    stop() {
      if (stopped) return;
      stopped = true;
      if (pid !== undefined) pool.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined);
    },
  };
}

/** Rows one FETCH of an export reads. */
const EXPORT_FETCH_ROWS = 2_000;

/**
 * A guarded SELECT's whole result for a download, read through a cursor in a READ ONLY transaction,
 * so only one fetch of rows is in memory at a time. Counted first: over `maxRows` is
 * `result_too_large` before any row. `timeoutMs` bounds the whole export (a cancel in the server).
 */
export async function streamPostgres(
  pool: pg.Pool,
  execution: {
    text: string;
    values: ParamValue[];
    sort: { column: string; direction: 'asc' | 'desc' }[];
    maxRows: number;
    timeoutMs: number;
    signal: AbortSignal;
  },
): Promise<RowStream> {
  const session = await stoppableSession(pool);
  const { client } = session;
  let broken = false;
  const run = (text: string) =>
    session.query<unknown[]>({ text, values: execution.values, rowMode: 'array', types: typeConfig });
  return streamRows({
    timeoutMs: execution.timeoutMs,
    signal: execution.signal,
    interrupt: () => session.stop(),
    // Ending the transaction drops the cursor; a client whose ROLLBACK fails is not reused.
    release: () => {
      client
        .query('ROLLBACK')
        .catch(() => {
          broken = true;
        })
        .finally(() => client.release(broken));
    },
    failure: (error, ending) =>
      ending.timedOut && !ending.cancelled
        ? new AppError(
            'query_timeout',
            `The download ran longer than ${execution.timeoutMs / 1000} s and was stopped: filter the result first.`,
          )
        : postgresFailure(error, ending.cancelled, execution.timeoutMs),
    async open() {
      if (execution.signal.aborted) throw new AppError('query_refused', 'The query was cancelled.');
      await session.query('BEGIN TRANSACTION READ ONLY');
      await session.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(execution.timeoutMs))}`);
      const wrapped = wrapResult(execution.text);
      const shape = await run(`SELECT * FROM ${wrapped} LIMIT 0`);
      const columns = await describeColumns(session, shape.fields);
      const count = Number((await run(`SELECT count(*) FROM ${wrapped}`)).rows[0]?.[0] ?? 0);
      if (count > execution.maxRows) throw tooLargeToExport(count, execution.maxRows);
      const orderBy = pageOrderBy(
        columns.map((column) => column.name),
        execution.sort,
      );
      await run(`DECLARE studio_export NO SCROLL CURSOR FOR SELECT * FROM ${wrapped}${orderBy}`);
      return {
        columns,
        count,
        async next() {
          const fetched = await session.query<unknown[]>({
            text: `FETCH ${EXPORT_FETCH_ROWS} FROM studio_export`,
            rowMode: 'array',
            types: typeConfig,
          });
          return fetched.rows.length === 0 ? undefined : fetched.rows;
        },
      };
    },
  });
}

/** Column names with their PostgreSQL type names (format_type of the result's type oids). */
async function describeColumns(session: StoppableSession, fields: pg.FieldDef[]) {
  const oids = [...new Set(fields.map((field) => field.dataTypeID))];
  const named = await session.query<{ oid: number; name: string }>(
    'SELECT oid::int AS oid, format_type(oid, NULL) AS name FROM pg_catalog.pg_type WHERE oid = ANY($1::oid[])',
    [oids],
  );
  const byOid = new Map(named.rows.map((row) => [row.oid, row.name]));
  return fields.map((field) => ({ name: field.name, type: byOid.get(field.dataTypeID) ?? 'unknown' }));
}

/** Tables and views the tenant's role may read, system schemas left out, with their columns. */
export async function listPostgresTables(
  pool: pg.Pool,
): Promise<{ name: string; columns: { name: string; type: string }[] }[]> {
  const result = await pool.query<{ schema: string; name: string; columns: { name: string; type: string }[] }>(`
    SELECT n.nspname AS schema, c.relname AS name,
           coalesce(json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod))
                             ORDER BY a.attnum) FILTER (WHERE a.attnum IS NOT NULL), '[]'::json) AS columns
    FROM pg_catalog.pg_class c
    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE c.relkind IN ('r', 'p', 'f', 'v', 'm')
      AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
      AND has_table_privilege(c.oid, 'SELECT')
    GROUP BY n.nspname, c.relname
    ORDER BY n.nspname, c.relname
    LIMIT 1000`);
  return result.rows.map((row) => ({
    name: row.schema === 'public' ? row.name : `${row.schema}.${row.name}`,
    columns: row.columns,
  }));
}
