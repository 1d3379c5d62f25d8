import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../config.js';
import { AppError } from '../../../lib/errors.js';
import { DEMO_TABLES, ensureDemoDatabase } from './demo-data.js';
import { bindablePlaceholders, checkSerializedQuery } from './sql-guard.js';

/**
 * Studio's engine (STUDIO.md; issue 31): runs one checked read query of a report on a source and
 * answers a page of it (tables: exact count, requested sort) or a capped result (KPIs, charts).
 * This first part serves the `demo` source on an embedded, hardened DuckDB; the `tenant` and
 * `extract` sources come next (docs/decisions/043-studio-engine.md).
 */

export type SourceId = 'demo' | 'tenant' | 'extract';
export interface StudioScope {
  /** The tenant chosen with X-Tenant-ID; null when none is (the demo source only). */
  tenantId: string | null;
}
export type ParamValue = string | number | boolean | null;

export interface RunRequest {
  scope: StudioScope;
  source: SourceId;
  /** May hold `:name` placeholders: bound, never spliced. */
  sql: string;
  params: Record<string, ParamValue>;
  /** `page`: tables (exact count, skip/limit/sort); `capped`: KPIs, charts, parameter options. */
  shape: 'page' | 'capped';
  skip?: number;
  limit?: number;
  sort?: { column: string; direction: 'asc' | 'desc' }[];
  /** Results of identical runs with a key are reused for `cacheTtlSeconds`. */
  cacheKey?: string;
  cacheTtlSeconds?: number;
  /** Aborted when the client goes away: the query is stopped in the engine. */
  signal?: AbortSignal;
}

export interface RunResult {
  columns: { name: string; type: string }[];
  rows: unknown[][];
  /** `page`: rows of the whole result; `capped`: rows returned. */
  count: number;
  cached: boolean;
  elapsed_ms: number;
}

export interface SourceSummary {
  id: SourceId;
  kind: SourceId;
  name: string;
}

export interface TableSummary {
  name: string;
  columns: { name: string; type: string }[];
}

type StudioEngineConfig = Config['studio'];

export interface StudioEngine {
  listSources(scope: StudioScope): Promise<SourceSummary[]>;
  listTables(scope: StudioScope, source: SourceId): Promise<TableSummary[]>;
  run(request: RunRequest): Promise<RunResult>;
  close(): Promise<void>;
}

/** A JSON-safe value: big integers within 2^53 become numbers, other engine values their text. */
function toJsonValue(value: DuckDBValue): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
    return value;
  }
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  const text = String(value);
  // Decimals read as numbers: a chart needs them as such.
  if (value.constructor.name === 'DuckDBDecimalValue') return Number(text);
  return text;
}

/** Results kept in memory at most (each a page or a capped result). */
const MAX_CACHED_RESULTS = 500;

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

function isInterrupted(error: unknown): boolean {
  return error instanceof Error && /interrupt/i.test(error.message);
}

export function createStudioEngine(deps: { config: StudioEngineConfig; log: FastifyBaseLogger }): StudioEngine {
  const { config, log } = deps;
  let demo: Promise<DuckDBInstance> | undefined;
  const running = new Map<string, number>();
  const inFlight = new Map<string, Promise<RunResult>>();
  const cache = new Map<string, { expires: number; result: RunResult }>();

  /** The demo database, built on first use, opened read-only with external access off and its settings locked. */
  function demoInstance(): Promise<DuckDBInstance> {
    demo ??= (async () => {
      const file = await ensureDemoDatabase(config.folder, config.demoRows);
      const instance = await DuckDBInstance.create(file, {
        access_mode: 'READ_ONLY',
        enable_external_access: 'false',
        autoload_known_extensions: 'false',
        autoinstall_known_extensions: 'false',
        memory_limit: config.memoryLimit,
        threads: String(config.threads),
        lock_configuration: 'true',
      });
      log.info({ file }, 'studio demo source ready');
      return instance;
    })().catch((error: unknown) => {
      demo = undefined;
      throw error;
    });
    return demo;
  }

  async function instanceFor(source: SourceId): Promise<{ instance: DuckDBInstance; tables: ReadonlySet<string> }> {
    if (source === 'demo') return { instance: await demoInstance(), tables: new Set(DEMO_TABLES) };
    throw new AppError('not_found', `This source is not available yet: ${source}`);
  }

  /** Parses with DuckDB's own parser and checks the tree; returns the SQL with bindable placeholders. */
  async function checked(
    connection: DuckDBConnection,
    sql: string,
    tables: ReadonlySet<string>,
    params: RunRequest['params'],
  ) {
    const { sql: bindable, names } = bindablePlaceholders(sql);
    const missing = names.filter((name) => !(name in params));
    if (missing.length > 0) throw new AppError('query_refused', `No value for the parameter :${missing[0]}`);
    const parsed = await connection.runAndReadAll('SELECT json_serialize_sql($sql::VARCHAR) AS tree', {
      sql: bindable,
    });
    const tree = parsed.getRowsJS()[0]?.[0];
    checkSerializedQuery(typeof tree === 'string' ? tree : '', tables);
    const values: Record<string, DuckDBValue> = {};
    for (const name of names) values[name] = params[name] ?? null;
    return { bindable, values };
  }

  async function execute(request: RunRequest): Promise<RunResult> {
    const started = performance.now();
    const { instance, tables } = await instanceFor(request.source);
    const connection = await instance.connect();
    const timer = setTimeout(() => connection.interrupt(), config.queryTimeoutMs);
    const onAbort = () => connection.interrupt();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const { bindable, values } = await checked(connection, request.sql, tables, request.params);
      const inner = `(${bindable}\n) AS studio_result`;
      const shapeOnly = await connection.runAndReadAll(`SELECT * FROM ${inner} LIMIT 0`, values);
      const columns = shapeOnly.columnNames().map((name, index) => ({
        name,
        type: shapeOnly.columnTypes()[index]!.toString(),
      }));
      if (request.shape === 'capped') {
        const reader = await connection.runAndReadAll(
          `SELECT * FROM ${inner} LIMIT ${config.maxCappedRows + 1}`,
          values,
        );
        const rows = reader.getRows();
        if (rows.length > config.maxCappedRows) {
          throw new AppError(
            'result_too_large',
            `The query returns more than ${config.maxCappedRows} rows: aggregate it (GROUP BY) or filter it`,
          );
        }
        return {
          columns,
          rows: rows.map((row) => row.map(toJsonValue)),
          count: rows.length,
          cached: false,
          elapsed_ms: Math.round(performance.now() - started),
        };
      }
      const names = new Set(columns.map((column) => column.name));
      const order = (request.sort ?? []).map((key) => {
        if (!names.has(key.column))
          throw new AppError('query_refused', `The result has no column ${key.column} to sort by`);
        return `${quoteIdentifier(key.column)} ${key.direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST`;
      });
      const skip = request.skip ?? 0;
      const limit = request.limit ?? 50;
      const counted = await connection.runAndReadAll(`SELECT count(*) FROM ${inner}`, values);
      const page = await connection.runAndReadAll(
        `SELECT * FROM ${inner}${order.length > 0 ? ` ORDER BY ${order.join(', ')}` : ''} LIMIT ${limit} OFFSET ${skip}`,
        values,
      );
      return {
        columns,
        rows: page.getRows().map((row) => row.map(toJsonValue)),
        count: Number(counted.getRows()[0]?.[0] ?? 0),
        cached: false,
        elapsed_ms: Math.round(performance.now() - started),
      };
    } catch (error) {
      if (isInterrupted(error)) {
        if (request.signal?.aborted) throw new AppError('query_refused', 'The query was cancelled');
        throw new AppError(
          'query_timeout',
          `The query ran longer than ${config.queryTimeoutMs / 1000} s and was stopped`,
        );
      }
      if (error instanceof AppError) throw error;
      // DuckDB's own words for a query it cannot bind or run (an unknown column, a type mismatch).
      throw new AppError('query_refused', (error instanceof Error ? error.message : String(error)).slice(0, 500));
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      connection.closeSync();
    }
  }

  /** One execution for identical runs in flight; a tenant's queries are limited in number. */
  async function run(request: RunRequest): Promise<RunResult> {
    const signature = JSON.stringify([
      request.scope.tenantId,
      request.source,
      request.sql,
      request.params,
      request.shape,
      request.skip ?? 0,
      request.limit ?? 50,
      request.sort ?? [],
    ]);
    const ttlMs = (request.cacheTtlSeconds ?? 0) * 1000;
    const cacheKey = request.cacheKey && ttlMs > 0 ? `${request.cacheKey}\u0000${signature}` : undefined;
    if (cacheKey) {
      const hit = cache.get(cacheKey);
      if (hit && hit.expires > Date.now()) return { ...hit.result, cached: true, elapsed_ms: 0 };
    }
    const shared = inFlight.get(signature);
    if (shared) return shared;

    const scope = request.scope.tenantId ?? '';
    const active = running.get(scope) ?? 0;
    if (active >= config.maxConcurrentPerTenant) {
      throw new AppError('too_many_queries', 'Too many queries are running for this tenant; try again shortly', {
        'retry-after': '1',
      });
    }
    running.set(scope, active + 1);
    const execution = execute(request).finally(() => {
      inFlight.delete(signature);
      const left = (running.get(scope) ?? 1) - 1;
      if (left > 0) running.set(scope, left);
      else running.delete(scope);
    });
    inFlight.set(signature, execution);
    const result = await execution;
    if (cacheKey) {
      // Bounded: the oldest entry goes first (a Map keeps insertion order).
      if (cache.size >= MAX_CACHED_RESULTS) cache.delete(cache.keys().next().value!);
      cache.set(cacheKey, { expires: Date.now() + ttlMs, result });
    }
    return result;
  }

  return {
    async listSources() {
      return [{ id: 'demo', kind: 'demo', name: 'Price transparency demo' }];
    },
    async listTables(_scope, source) {
      const { instance, tables } = await instanceFor(source);
      const connection = await instance.connect();
      try {
        const reader = await connection.runAndReadAll(
          `SELECT table_name, column_name, data_type FROM information_schema.columns
           WHERE table_schema = 'main' ORDER BY table_name, ordinal_position`,
        );
        const byTable = new Map<string, TableSummary>();
        for (const [table, column, type] of reader.getRows()) {
          if (!tables.has(String(table))) continue;
          const entry = byTable.get(String(table)) ?? { name: String(table), columns: [] };
          entry.columns.push({ name: String(column), type: String(type) });
          byTable.set(String(table), entry);
        }
        return [...byTable.values()];
      } finally {
        connection.closeSync();
      }
    },
    run,
    async close() {
      const opened = demo;
      demo = undefined;
      cache.clear();
      if (opened) (await opened.catch(() => undefined))?.closeSync();
    },
  };
}
