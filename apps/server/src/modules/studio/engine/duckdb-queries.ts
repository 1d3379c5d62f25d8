import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { LRUCache } from 'lru-cache';
import { AppError, describeError } from '../../../lib/errors.js';
import { duckdbValues, jsonRows } from './duckdb-database.js';
import { checkDuckdbTree } from './duckdb-guard.js';
import {
  bindPlaceholders,
  firstLine,
  pageOrderBy,
  queryTimedOut,
  refused,
  tooLargeForCap,
  valuesFor,
  wrapResult,
} from './sql-text.js';
import type { RunRequest, StoredResult } from './types.js';
import type { WorkUnderWay } from './work-under-way.js';

/** Query texts whose parse tree is kept (a few KB each). */
const PARSED_SQL_ENTRIES = 1_000;

/** A statement checked by DuckDB's own parser: the bound text and its values. */
export interface PreparedDuckdb {
  text: string;
  values: ReturnType<typeof duckdbValues>;
}

/** What one execution needs: bound SQL, its values and the page or cap asked for. */
export interface DuckdbExecution extends PreparedDuckdb {
  shape: RunRequest['shape'];
  skip: number;
  limit: number;
  sort: NonNullable<RunRequest['sort']>;
}

/**
 * Checks report SQL with DuckDB's parser and the guard on its tree (ours, on a real parser: see
 * duckdb-guard.ts), remembering both: DuckDB's parse tree (`json_serialize_sql`) of each text lately
 * run, since the same text always gives the same tree, so a report viewed again is checked without a
 * connection and a parse; and the texts the guard passed, per set of readable tables (a source's set
 * is new when its tables change).
 */
export function createDuckdbPreparer() {
  const parsedSql = new LRUCache<string, string>({ max: PARSED_SQL_ENTRIES });
  const guardPassed = new WeakMap<ReadonlySet<string>, LRUCache<string, true>>();

  return async function prepare(
    instance: DuckDBInstance,
    request: Pick<RunRequest, 'sql' | 'params'>,
    tables: ReadonlySet<string>,
  ): Promise<PreparedDuckdb> {
    const bound = bindPlaceholders(request.sql, (index) => `$p${index}`);
    const values = valuesFor(bound.names, request.params);
    let json = parsedSql.get(bound.text);
    if (json === undefined) {
      // The parser wants a constant: the text becomes a string literal that is parsed, never run.
      const connection = await instance.connect();
      try {
        const reader = await connection.runAndReadAll(
          `SELECT json_serialize_sql('${bound.text.replaceAll("'", "''")}')`,
        );
        json = String(reader.getRows()[0]?.[0] ?? '');
      } catch (error) {
        throw refused(`The query could not be read: ${firstLine(describeError(error))}`);
      } finally {
        connection.closeSync();
      }
      parsedSql.set(bound.text, json);
    }
    // Checked for the tables the source has now: a new set of tables (an extract added or deleted)
    // checks the text again; the same text on the same tables passed before and passes again.
    let passed = guardPassed.get(tables);
    if (!passed) {
      passed = new LRUCache<string, true>({ max: PARSED_SQL_ENTRIES });
      guardPassed.set(tables, passed);
    }
    const verdictKey = `${values.length}:${bound.text}`;
    if (passed.get(verdictKey) === undefined) {
      checkDuckdbTree(json, tables, values.length);
      passed.set(verdictKey, true);
    }
    return { text: bound.text, values: duckdbValues(values) };
  };
}

export interface DuckdbLimits {
  rowCap: number;
  queryTimeoutMs: number;
}

/** Runs on DuckDB with the time limit and the abort signal both interrupting the engine. */
export async function executeDuckdb(
  instance: DuckDBInstance,
  execution: DuckdbExecution,
  signal: AbortSignal,
  limits: DuckdbLimits,
  work: WorkUnderWay,
): Promise<StoredResult> {
  const connections: DuckDBConnection[] = [];
  const open = async () => {
    const connection = await instance.connect();
    connections.push(connection);
    return connection;
  };
  let timedOutFlag = false;
  const interruptAll = () => {
    for (const connection of connections) connection.interrupt();
  };
  const timer = setTimeout(() => {
    timedOutFlag = true;
    interruptAll();
  }, limits.queryTimeoutMs);
  signal.addEventListener('abort', interruptAll, { once: true });
  const endWork = work.start(interruptAll);
  try {
    const first = await open();
    const wrapped = wrapResult(execution.text);
    // Columns and their types, from the statement planned with its values bound (no row read).
    const { columns, typeIds } = await describeDuckdb(first, wrapped, execution.values);
    if (execution.shape === 'capped') {
      const reader = await first.runAndReadAll(`SELECT * FROM ${wrapped} LIMIT ${limits.rowCap + 1}`, execution.values);
      const rows = reader.getRowsJson() as unknown[][];
      if (rows.length > limits.rowCap) throw tooLargeForCap(limits.rowCap);
      return { columns, rows: jsonRows(typeIds, rows), count: rows.length };
    }
    const orderBy = pageOrderBy(
      columns.map((column) => column.name),
      execution.sort,
    );
    const second = await open();
    const [countReader, pageReader] = await bothSettled(
      first.runAndReadAll(`SELECT count(*) FROM ${wrapped}`, execution.values),
      second.runAndReadAll(
        `SELECT * FROM ${wrapped}${orderBy} LIMIT ${execution.limit} OFFSET ${execution.skip}`,
        execution.values,
      ),
      interruptAll,
    );
    const count = Number(countReader.getRows()[0]?.[0] ?? 0);
    return { columns, rows: jsonRows(typeIds, pageReader.getRowsJson()), count };
  } catch (error) {
    throw duckdbFailure(error, timedOutFlag ? limits.queryTimeoutMs : null);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', interruptAll);
    for (const connection of connections) connection.closeSync();
    endWork();
  }
}

/** A wrapped statement's columns and their types, planned with its values bound (no row read). */
export async function describeDuckdb(connection: DuckDBConnection, wrapped: string, values: PreparedDuckdb['values']) {
  const reader = await connection.runAndReadAll(`SELECT * FROM ${wrapped} LIMIT 0`, values);
  const columns = reader.columnNames().map((name, index) => ({ name, type: reader.columnType(index).toString() }));
  const typeIds = columns.map((_, index) => reader.columnTypeId(index));
  return { columns, typeIds };
}

/**
 * Both queries' results, once both have finished. A DuckDB connection must never be closed while a
 * query of its runs on a worker thread: the query's end then frees the connection inside its own
 * lock, and that worker thread waits forever (and with it the process's exit). So when one fails,
 * the other is interrupted (`stop`) and awaited before the caller closes their connections.
 */
export async function bothSettled<A, B>(first: Promise<A>, second: Promise<B>, stop: () => void): Promise<[A, B]> {
  const stopOnFailure = <T>(query: Promise<T>) =>
    query.catch((error: unknown) => {
      stop();
      throw error;
    });
  const [a, b] = await Promise.allSettled([stopOnFailure(first), stopOnFailure(second)]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
  return [a.value, b.value];
}

/**
 * What a DuckDB failure means to the caller: stopped at its time limit (`timedOutAfterMs`), cancelled,
 * out of memory, or the query's own error.
 */
export function duckdbFailure(error: unknown, timedOutAfterMs: number | null): AppError {
  if (error instanceof AppError) return error;
  const message = describeError(error);
  if (message.includes('INTERRUPT')) {
    if (timedOutAfterMs !== null) return queryTimedOut(timedOutAfterMs);
    return new AppError('query_refused', 'The query was cancelled.');
  }
  if (message.includes('Out of Memory')) {
    return refused('The query needs more memory than a report may use: aggregate or filter it.');
  }
  return refused(`The query failed: ${firstLine(message)}`);
}
