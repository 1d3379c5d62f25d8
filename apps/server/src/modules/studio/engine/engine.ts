import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Config } from '../../../config.js';
import { AppError, describeError } from '../../../lib/errors.js';
import type { ServiceMetrics } from '../../../lib/metrics.js';
import type { RedisConnection } from '../../../lib/redis.js';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DEMO_TABLES, ensureDemoDatabase } from './demo-data.js';
import { EXTRACT_TABLE, sqlString } from './extract-files.js';
import type { Lease } from './extract-cache.js';
import type { ExtractStorage } from './extract-storage.js';
import { duckdbValues, jsonRows, openHardened } from './duckdb-database.js';
import { checkDuckdbTree } from './duckdb-guard.js';
import { checkPostgresSql } from './postgres-guard.js';
import { executePostgres, listPostgresTables, streamPostgres } from './postgres-source.js';
import { createMemoryCache, createRedisCache, resultKey, type ResultCache } from './result-cache.js';
import { bindPlaceholders, pageOrderBy, refused, valuesFor } from './sql-text.js';
import { createTextCache, type TextCache } from '../../../lib/text-cache.js';

/** The demo's tables: one set, so the guard's verdicts on it are kept (guardPassed). */
const DEMO_TABLE_SET: ReadonlySet<string> = new Set(DEMO_TABLES);

/** A tenant has one source of each kind; the id of a source is its kind. */
export type SourceId = 'demo' | 'tenant' | 'extract';

/** Whose data a call may see: `tenantId` null means no tenant was chosen (the demo source only). */
export interface StudioScope {
  tenantId: string | null;
  /** The chosen tenant's sealed `dburl`; null or omitted: it has no `tenant` source. */
  sealedDburl?: string | null;
  /**
   * Who asks, for a restricted report (issue 58): omitted means nobody in particular, who sees only
   * reports every member sees. The engine itself never reads it.
   */
  viewer?: ReportViewer | undefined;
}

/** A signed-in caller as a report's visibility judges them. */
export interface ReportViewer {
  id: string;
  superuser: boolean;
  roleNames: readonly string[];
}

export type ParamValue = string | number | boolean | null;

export interface RunRequest {
  scope: StudioScope;
  source: SourceId;
  /** One read statement; may hold `:name` placeholders, which are bound, never spliced. */
  sql: string;
  params: Record<string, ParamValue>;
  /** page: a table (exact count, skip/limit/sort); capped: a KPI, chart or parameter options. */
  shape: 'page' | 'capped';
  skip?: number;
  limit?: number;
  sort?: { column: string; direction: 'asc' | 'desc' }[];
  /** Names the result for the cache, e.g. `${reportId}:${version}:${blockId}`; omitted: no cache. */
  cacheKey?: string;
  /** 0 or omitted: no cache. */
  cacheTtlSeconds?: number;
  /** Aborted when the client goes away: the query stops unless others wait for the same result. */
  signal?: AbortSignal;
}

export interface RunResult {
  columns: { name: string; type: string }[];
  /** JSON-safe values: big integers as numbers when exact, else text; dates and times as ISO text. */
  rows: unknown[][];
  /** page: rows of the whole result; capped: rows returned. */
  count: number;
  cached: boolean;
  elapsed_ms: number;
}

/** Every row of a table block's result, for a download (`POST /reports/{id}/export`). */
export interface ExportRequest {
  scope: StudioScope;
  source: SourceId;
  sql: string;
  params: Record<string, ParamValue>;
  sort?: { column: string; direction: 'asc' | 'desc' }[];
  /** Aborted when the client goes away: the query stops in the engine. */
  signal?: AbortSignal;
}

/**
 * A result read chunk by chunk, never held whole. The caller reads `chunks` to the end or calls
 * `close()` (both may happen; closing twice is harmless): either frees the connection and the
 * tenant's query slot.
 */
export interface RowStream {
  columns: { name: string; type: string }[];
  /** Rows of the whole result, counted before the first chunk. */
  count: number;
  chunks: AsyncIterable<unknown[][]>;
  close(): void;
}

export interface SourceSummary {
  id: SourceId;
  kind: SourceId;
  name: string;
  description: string;
}

export interface TableSummary {
  name: string;
  columns: { name: string; type: string }[];
}

export interface StudioEngine {
  listSources(scope: StudioScope): Promise<SourceSummary[]>;
  listTables(scope: StudioScope, source: SourceId): Promise<TableSummary[]>;
  /**
   * Runs one block's SQL. Throws AppError `query_refused`, `query_timeout`, `result_too_large`,
   * `source_unavailable`, `too_many_queries` or `source_not_found`.
   */
  run(request: RunRequest): Promise<RunResult>;
  /**
   * Streams a table block's whole result in the requested order, up to `exportMaxRows` rows (more:
   * `result_too_large` before the first row); the time limit is `exportTimeoutMs`. Never cached.
   */
  exportRows(request: ExportRequest): Promise<RowStream>;
  /**
   * Lets go of everything the engine holds of a deleted tenant: its extract database closes (once
   * the queries still using it end), its cached results are dropped, and no later run keeps any.
   */
  forgetTenant(tenantId: string): Promise<void>;
  /** What the engine holds of a tenant: an open extract database, cached results (tests look at it). */
  heldFor(tenantId: string): Promise<{ extractDatabase: boolean; cachedResults: number }>;
  close(): Promise<void>;
}

export interface StudioEngineDeps {
  config: Config;
  log: FastifyBaseLogger;
  /** Shares cached results across a fleet when REDIS_URL is set. */
  redis?: RedisConnection | undefined;
  /** The tenant's own database through its bounded pool (modules/tenants); omitted: no `tenant` source. */
  tenantDatabases?: TenantDatabaseAccess | undefined;
  /** Counts each execution on /metrics (`dp_studio_query_executions_total`): what the cache and single-flight save. */
  metrics?: Pick<ServiceMetrics, 'studioQueryExecuted'> | undefined;
  /** The extracts each tenant has (the app database's rows); omitted: no `extract` source. */
  extracts?: ExtractCatalog | undefined;
  /** Where the extracts' files are (with `extracts`). */
  storage?: ExtractStorage | undefined;
}

/** A tenant's extracts as stored: each the table `name`, in the DuckDB file the store holds as `key`. */
export interface ExtractCatalog {
  list(
    tenantId: string,
  ): Promise<{ id: string; name: string; key: string; columns: { name: string; type: string }[] }[]>;
}

/** Most tenants whose extract database stays open; the least recently used closes first. */
const EXTRACT_DATABASES_MAX = 16;

/** One tenant's hardened DuckDB with its extracts attached, open while queries use it. */
interface ExtractDatabase {
  /** The extract ids it attached, sorted: another set means another database. */
  key: string;
  instance: Promise<DuckDBInstance>;
  tables: ReadonlySet<string>;
  users: number;
  retired: boolean;
  /** Its files, held in the local cache until the database has closed. */
  leases: Lease[];
  /** Set once it closes. */
  closed?: Promise<void>;
}

/** Runs `work` on the pool of the tenant's own database (host allow-list checked by the caller's service). */
export interface TenantDatabaseAccess {
  use<T>(tenantId: string, sealedDburl: string, work: (pool: pg.Pool) => Promise<T>): Promise<T>;
}

/** How many queries may wait for a tenant's slots, per slot. */
const QUEUE_PER_SLOT = 8;

/** Most rows one table page may hold. */
export const MAX_PAGE_ROWS = 1_000;
/** Query texts whose parse tree is kept (a few KB each). */
const PARSED_SQL_ENTRIES = 1_000;

const notFoundSource = (source: string) => new AppError('source_not_found', `There is no source ${source} here.`);
const tooMany = () =>
  new AppError('too_many_queries', 'Too many queries are running for this tenant; try again in a moment.', {
    'Retry-After': '1',
  });
const timedOut = (seconds: number) =>
  new AppError(
    'query_timeout',
    `The query ran longer than ${seconds} s and was stopped: filter or aggregate it so it reads less.`,
  );

/** What one execution needs: bound SQL, its values and the page or cap asked for. */
interface Execution {
  text: string;
  values: ReturnType<typeof duckdbValues>;
  shape: RunRequest['shape'];
  skip: number;
  limit: number;
  sort: NonNullable<RunRequest['sort']>;
}

type Stored = Omit<RunResult, 'cached' | 'elapsed_ms'>;

/** One run in flight shared by every identical request; it stops when all of them have gone. */
interface Flight {
  promise: Promise<Stored>;
  waiters: number;
  controller: AbortController;
}

/** The engine behind Studio's reports (issue 31, docs/decisions/044-studio-engine.md). */
export function createStudioEngine(deps: StudioEngineDeps): StudioEngine {
  const { config, log } = deps;
  const settings = config.studio;
  const cache: ResultCache = deps.redis ? createRedisCache(deps.redis) : createMemoryCache();
  const flights = new Map<string, Flight>();
  const running = new Map<string, number>();
  /** Queries waiting for a slot, per tenant, in arrival order. */
  const queues = new Map<string, { grant: () => void }[]>();
  let demo: Promise<DuckDBInstance> | undefined;
  const extractDatabases = new Map<string, ExtractDatabase>();
  /** Deleted tenants: a run that began before the deletion opens nothing and caches nothing for them. */
  const forgotten = new Set<string>();
  /**
   * DuckDB's parse tree (`json_serialize_sql`) of each query text lately run: the same text always
   * gives the same tree, so a report viewed again is checked without a connection and a parse.
   */
  const parsedSql = createTextCache<string>(PARSED_SQL_ENTRIES);
  /** The texts the guard passed, per set of readable tables (a source's set is new when its tables change). */
  const guardPassed = new WeakMap<ReadonlySet<string>, TextCache<true>>();
  let closed = false;
  /** The DuckDB work under way, each with what stops it: close() stops it all and waits for its end. */
  const underWay = new Map<Promise<void>, () => void>();
  function startWork(stop: () => void): () => void {
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    underWay.set(ended, stop);
    return () => {
      underWay.delete(ended);
      end();
    };
  }

  function demoInstance(): Promise<DuckDBInstance> {
    demo ??= (async () => {
      const file = await ensureDemoDatabase(settings.dir, settings.demoRows);
      return openHardened(file, {
        readOnly: true,
        memoryLimit: settings.duckdbMemoryLimit,
        threads: settings.duckdbThreads,
      });
    })().catch((error: unknown) => {
      demo = undefined;
      log.error({ err: describeError(error) }, 'the Studio demo database could not be opened');
      throw new AppError('source_unavailable', 'The demo source is not available now.', { 'Retry-After': '5' });
    });
    return demo;
  }

  /** Closes a retired database once no query uses it; its files are let go after. */
  function closeWhenUnused(database: ExtractDatabase): Promise<void> {
    if (!database.retired || database.users > 0) return Promise.resolve();
    database.closed ??= database.instance
      .then((instance) => instance.closeSync())
      .catch(() => undefined)
      .then(() => {
        for (const lease of database.leases.splice(0)) lease.release();
      });
    return database.closed;
  }

  // The cache of an object store needs room that only idle databases' files hold: they close (the
  // next query opens them again), never one a query uses.
  deps.storage?.setReclaimer(async () => {
    const idle = [...extractDatabases].filter(([, database]) => database.users === 0);
    for (const [tenantId, database] of idle) {
      extractDatabases.delete(tenantId);
      database.retired = true;
    }
    await Promise.all(idle.map(([, database]) => closeWhenUnused(database)));
  });

  /**
   * The tenant's extract database, holding its extracts as `extracts` lists them now: a hardened
   * in-memory DuckDB that attached each extract's file read-only and named it by a view, before
   * external access was turned off and the configuration locked. It sees no other tenant's file and
   * no demo table. A new or deleted extract makes a new database; the old one closes when its last
   * query ends. `release` must be called once the caller is done with it.
   */
  async function extractDatabase(tenantId: string): Promise<{ database: ExtractDatabase; release: () => void }> {
    const catalog = deps.extracts;
    const storage = deps.storage;
    if (!catalog || !storage) throw notFoundSource('extract');
    const extracts = [...(await catalog.list(tenantId))].sort((a, b) => a.id.localeCompare(b.id));
    if (forgotten.has(tenantId)) throw notFoundSource('extract');
    const key = extracts.map((extract) => extract.id).join(',');
    let database = extractDatabases.get(tenantId);
    if (database?.key !== key) {
      if (database) {
        database.retired = true;
        void closeWhenUnused(database);
      }
      // Copies of extracts deleted meanwhile (through this instance or another) go from the cache.
      storage.forgetOthers(tenantId, new Set(extracts.map((extract) => extract.key)));
      const tempDirectory = path.join(settings.dir, 'tmp');
      const leases: Lease[] = [];
      const open = async () => {
        await mkdir(tempDirectory, { recursive: true });
        try {
          // Fetched into the local cache when the store is remote (in parallel: a cold cache waits once).
          const opened = await Promise.allSettled(extracts.map((extract) => storage.open(extract.key)));
          for (const result of opened) if (result.status === 'fulfilled') leases.push(result.value);
          const failed = opened.find((result) => result.status === 'rejected');
          if (failed) throw failed.reason;
          return await openHardened(':memory:', {
            readOnly: false,
            memoryLimit: settings.duckdbMemoryLimit,
            threads: settings.duckdbThreads,
            tempDirectory,
            setup: async (connection) => {
              for (const [index, extract] of extracts.entries()) {
                const file = leases[index]!.path;
                await connection.run(`ATTACH ${sqlString(file)} AS extract_${index} (READ_ONLY)`);
                await connection.run(
                  `CREATE VIEW main."${extract.name.replaceAll('"', '""')}" AS SELECT * FROM extract_${index}.main.${EXTRACT_TABLE}`,
                );
              }
            },
          });
        } catch (error) {
          for (const lease of leases.splice(0)) lease.release();
          throw error;
        }
      };
      const created: ExtractDatabase = {
        key,
        tables: new Set(extracts.map((extract) => extract.name.toLowerCase())),
        users: 0,
        retired: false,
        leases,
        instance: open(),
      };
      created.instance.catch((error: unknown) => {
        if (extractDatabases.get(tenantId) === created) extractDatabases.delete(tenantId);
        log.error({ tenantId, err: describeError(error) }, "a tenant's Studio extract database could not be opened");
      });
      database = created;
    }
    // Most recently used last: the first entries are the ones to close when there are too many.
    extractDatabases.delete(tenantId);
    extractDatabases.set(tenantId, database);
    for (const [otherTenant, other] of extractDatabases) {
      if (extractDatabases.size <= EXTRACT_DATABASES_MAX) break;
      extractDatabases.delete(otherTenant);
      other.retired = true;
      void closeWhenUnused(other);
    }
    const used = database;
    used.users += 1;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      used.users -= 1;
      void closeWhenUnused(used);
    };
    try {
      await used.instance;
    } catch {
      release();
      throw new AppError('source_unavailable', "The tenant's extracts are not available now.", { 'Retry-After': '5' });
    }
    return { database: used, release };
  }

  /** Checks the SQL with DuckDB's own parser, then gives the bound text and values. */
  async function prepareDuckdb(
    instance: DuckDBInstance,
    request: Pick<RunRequest, 'sql' | 'params'>,
    tables: ReadonlySet<string>,
  ) {
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
      passed = createTextCache<true>(PARSED_SQL_ENTRIES);
      guardPassed.set(tables, passed);
    }
    const verdictKey = `${values.length}:${bound.text}`;
    if (passed.get(verdictKey) === undefined) {
      checkDuckdbTree(json, tables, values.length);
      passed.set(verdictKey, true);
    }
    return { text: bound.text, values: duckdbValues(values) };
  }

  function checkPaging(request: RunRequest): { skip: number; limit: number } {
    const skip = request.skip ?? 0;
    const limit = request.limit ?? (request.shape === 'page' ? 50 : settings.rowCap);
    if (!Number.isSafeInteger(skip) || skip < 0) throw refused('skip must be a whole number from 0.');
    const most = request.shape === 'page' ? MAX_PAGE_ROWS : settings.rowCap;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > most) {
      throw refused(`limit must be a whole number from 1 to ${most}.`);
    }
    return { skip, limit };
  }

  /** Runs on DuckDB with the time limit and the abort signal both interrupting the engine. */
  async function executeDuckdb(instance: DuckDBInstance, execution: Execution, signal: AbortSignal): Promise<Stored> {
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
    }, settings.queryTimeoutMs);
    signal.addEventListener('abort', interruptAll, { once: true });
    const endWork = startWork(interruptAll);
    try {
      const first = await open();
      const wrapped = `(\n${execution.text}\n) AS studio_result`;
      // Columns and their types, from the statement planned with its values bound (no row read).
      const shapeReader = await first.runAndReadAll(`SELECT * FROM ${wrapped} LIMIT 0`, execution.values);
      const columns = shapeReader.columnNames().map((name, index) => ({
        name,
        type: shapeReader.columnType(index).toString(),
      }));
      const typeIds = columns.map((_, index) => shapeReader.columnTypeId(index));
      if (execution.shape === 'capped') {
        const reader = await first.runAndReadAll(
          `SELECT * FROM ${wrapped} LIMIT ${settings.rowCap + 1}`,
          execution.values,
        );
        const rows = reader.getRowsJson() as unknown[][];
        if (rows.length > settings.rowCap) {
          throw new AppError(
            'result_too_large',
            `The query returns more than ${settings.rowCap} rows: aggregate it (GROUP BY) or filter it for a chart or KPI.`,
          );
        }
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
      throw duckdbFailure(error, timedOutFlag ? settings.queryTimeoutMs : null);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', interruptAll);
      for (const connection of connections) connection.closeSync();
      endWork();
    }
  }

  /**
   * Takes one of the tenant's query slots. When all are busy the query waits its turn (first come,
   * first served) for at most STUDIO_QUEUE_WAIT_SECONDS, with at most QUEUE_PER_SLOT × the limit
   * waiting; beyond either it is a 429 with Retry-After. A report's blocks start together, so a view
   * with more blocks than slots waits a moment instead of failing. The returned function frees the
   * slot, handing it straight to the next in line.
   */
  async function admit(bucket: string, signal?: AbortSignal): Promise<() => void> {
    const now = running.get(bucket) ?? 0;
    const queue = queues.get(bucket) ?? [];
    if (now < settings.maxQueriesPerTenant && queue.length === 0) {
      running.set(bucket, now + 1);
      return releaser(bucket);
    }
    if (settings.queueWaitMs === 0 || queue.length >= settings.maxQueriesPerTenant * QUEUE_PER_SLOT) throw tooMany();
    await new Promise<void>((resolve, reject) => {
      const stopWaiting = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const leaveQueue = () => {
        stopWaiting();
        const waiting = queues.get(bucket);
        const at = waiting?.indexOf(waiter) ?? -1;
        if (waiting && at >= 0) waiting.splice(at, 1);
        if (waiting?.length === 0) queues.delete(bucket);
      };
      const waiter = {
        grant: () => {
          stopWaiting();
          resolve();
        },
      };
      const timer = setTimeout(() => {
        leaveQueue();
        reject(tooMany());
      }, settings.queueWaitMs);
      const onAbort = () => {
        leaveQueue();
        reject(new AppError('query_refused', 'The query was cancelled.'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
      queues.set(bucket, queue);
    });
    // The slot was handed over by the query that freed it: the count of running ones is unchanged.
    return releaser(bucket);
  }

  function releaser(bucket: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const waiting = queues.get(bucket);
      const next = waiting?.shift();
      if (waiting?.length === 0) queues.delete(bucket);
      if (next) {
        next.grant();
        return;
      }
      const left = (running.get(bucket) ?? 1) - 1;
      if (left <= 0) running.delete(bucket);
      else running.set(bucket, left);
    };
  }

  /** Shares one execution among identical runs; each waiter may leave on its own signal. */
  function shared(key: string, signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<Stored>) {
    let flight = flights.get(key);
    if (!flight) {
      const controller = new AbortController();
      const created: Flight = { promise: Promise.resolve() as unknown as Promise<Stored>, waiters: 0, controller };
      created.promise = work(controller.signal).finally(() => {
        if (flights.get(key) === created) flights.delete(key);
      });
      // Nobody may be waiting when it fails (all left): the rejection is handled here too.
      created.promise.catch(() => undefined);
      flights.set(key, created);
      flight = created;
    }
    const current = flight;
    current.waiters += 1;
    return new Promise<Stored>((resolve, reject) => {
      let done = false;
      const leave = () => {
        if (done) return;
        done = true;
        current.waiters -= 1;
        if (current.waiters === 0) {
          if (flights.get(key) === current) flights.delete(key);
          current.controller.abort();
        }
        reject(new AppError('query_refused', 'The query was cancelled.'));
      };
      if (signal?.aborted) {
        leave();
        return;
      }
      signal?.addEventListener('abort', leave, { once: true });
      current.promise.then(
        (value) => {
          if (done) return;
          done = true;
          current.waiters -= 1;
          signal?.removeEventListener('abort', leave);
          resolve(value);
        },
        (error: unknown) => {
          if (done) return;
          done = true;
          current.waiters -= 1;
          signal?.removeEventListener('abort', leave);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /** The DuckDB a demo or extract run uses, the tables its SQL may name, and what versions its results. */
  async function duckdbSource(request: Pick<RunRequest, 'source' | 'scope'>): Promise<{
    instance: DuckDBInstance;
    tables: ReadonlySet<string>;
    version: string;
    /** Whose data it holds: undefined for the demo, shared by everyone. */
    tenantId?: string;
    /** Keeps the database open while the execution uses it (a new extract may retire it meanwhile). */
    hold: () => () => void;
    release: () => void;
  }> {
    if (request.source === 'demo') {
      // The demo is the same for everyone: its results are shared by all tenants.
      const noop = () => undefined;
      return {
        instance: await demoInstance(),
        tables: DEMO_TABLE_SET,
        version: `demo:${settings.demoRows}`,
        hold: () => noop,
        release: noop,
      };
    }
    const tenantId = request.scope.tenantId;
    if (request.source !== 'extract' || tenantId === null || !deps.extracts) throw notFoundSource(request.source);
    const { database, release } = await extractDatabase(tenantId);
    return {
      instance: await database.instance,
      tables: database.tables,
      // The set of extract ids: the same on every instance of a fleet, new when one is added or deleted.
      version: `extract:${tenantId}:${database.key}`,
      tenantId,
      hold: () => {
        database.users += 1;
        let held = true;
        return () => {
          if (!held) return;
          held = false;
          database.users -= 1;
          void closeWhenUnused(database);
        };
      },
      release,
    };
  }

  async function run(request: RunRequest): Promise<RunResult> {
    const started = performance.now();
    if (closed) throw new AppError('source_unavailable', 'The Studio engine is shutting down.', { 'Retry-After': '5' });
    const { skip, limit } = checkPaging(request);
    const sort = request.sort ?? [];
    if (request.source === 'tenant') return runTenant(request, { skip, limit, sort }, started);
    const source = await duckdbSource(request);
    try {
      const { instance } = source;
      const prepared = await prepareDuckdb(instance, request, source.tables);
      const execution: Execution = { ...prepared, shape: request.shape, skip, limit, sort };
      const key = resultKey(
        [
          source.version,
          execution.text,
          Object.entries(execution.values).map(([k, v]) => [k, typeof v === 'bigint' ? `${v}n` : v]),
          request.shape,
          skip,
          limit,
          sort,
        ],
        source.tenantId,
      );
      const ttl = request.cacheKey !== undefined ? (request.cacheTtlSeconds ?? 0) : 0;
      if (ttl > 0) {
        const hit = await cache.get(key);
        if (hit) return { ...hit, cached: true, elapsed_ms: elapsedSince(started) };
      }
      const bucket = request.scope.tenantId ?? 'no-tenant';
      const result = await shared(key, request.signal, async (signal) => {
        const release = await admit(bucket, signal);
        const unhold = source.hold();
        try {
          deps.metrics?.studioQueryExecuted(request.source);
          const stored = await executeDuckdb(instance, execution, signal);
          if (ttl > 0 && !(source.tenantId !== undefined && forgotten.has(source.tenantId))) {
            await cache.set(key, stored, ttl);
          }
          return stored;
        } finally {
          unhold();
          release();
        }
      });
      return { ...result, cached: false, elapsed_ms: elapsedSince(started) };
    } finally {
      source.release();
    }
  }

  /** The tenant's own database, or a 404 when the scope has none (no tenant chosen, no `dburl`). */
  function tenantDatabase(scope: StudioScope): { tenantId: string; sealed: string; access: TenantDatabaseAccess } {
    const access = deps.tenantDatabases;
    if (!access || scope.tenantId === null || !scope.sealedDburl) throw notFoundSource('tenant');
    return { tenantId: scope.tenantId, sealed: scope.sealedDburl, access };
  }

  /** Wraps the pool's failures (not the query's) as source_unavailable, without the URL's secrets. */
  async function onTenantPool<T>(scope: StudioScope, work: (pool: pg.Pool) => Promise<T>): Promise<T> {
    const { tenantId, sealed, access } = tenantDatabase(scope);
    try {
      return await access.use(tenantId, sealed, work);
    } catch (error) {
      if (error instanceof AppError) throw error;
      log.warn({ tenantId, err: firstLine(describeError(error)) }, 'a Studio tenant source failed');
      throw new AppError('source_unavailable', "The tenant's database is not available now.", { 'Retry-After': '5' });
    }
  }

  /** A block on the tenant's own PostgreSQL database: guarded by its parser, run read-only and bounded. */
  async function runTenant(
    request: RunRequest,
    paging: { skip: number; limit: number; sort: NonNullable<RunRequest['sort']> },
    started: number,
  ): Promise<RunResult> {
    const { tenantId, sealed } = tenantDatabase(request.scope);
    const bound = bindPlaceholders(request.sql, (index) => `$${index + 1}`);
    const values = valuesFor(bound.names, request.params);
    await checkPostgresSql(bound.text, values.length);
    // Live data: a result is reused only for the report's cache time, per tenant and per URL.
    const key = resultKey(
      [`tenant:${tenantId}:${sealed}`, bound.text, values, request.shape, paging.skip, paging.limit, paging.sort],
      tenantId,
    );
    const ttl = request.cacheKey !== undefined ? (request.cacheTtlSeconds ?? 0) : 0;
    if (ttl > 0) {
      const hit = await cache.get(key);
      if (hit) return { ...hit, cached: true, elapsed_ms: elapsedSince(started) };
    }
    const result = await shared(key, request.signal, async (signal) => {
      const release = await admit(tenantId, signal);
      try {
        deps.metrics?.studioQueryExecuted('tenant');
        const stored = await onTenantPool(request.scope, (pool) =>
          executePostgres(pool, {
            text: bound.text,
            values,
            shape: request.shape,
            ...paging,
            rowCap: settings.rowCap,
            timeoutMs: settings.queryTimeoutMs,
            signal,
          }),
        );
        if (ttl > 0 && !forgotten.has(tenantId)) await cache.set(key, stored, ttl);
        return stored;
      } finally {
        release();
      }
    });
    return { ...result, cached: false, elapsed_ms: elapsedSince(started) };
  }

  /** Frees a stream's resources once, whichever of its end, its failure or `close()` comes first. */
  function onceOnly(free: () => void): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      free();
    };
  }

  /** `stream`, freeing `free` too once it ends, fails or is closed (whichever comes first). */
  function alsoFreeing(stream: RowStream, free: () => void): RowStream {
    const close = onceOnly(() => {
      stream.close();
      free();
    });
    async function* chunks() {
      try {
        yield* stream.chunks;
      } finally {
        close();
      }
    }
    return { columns: stream.columns, count: stream.count, chunks: chunks(), close };
  }

  function tooLargeToExport(count: number): AppError {
    return new AppError(
      'result_too_large',
      `The result has ${count} rows; a download holds at most ${settings.exportMaxRows}: filter it first.`,
    );
  }

  /** A table's whole result on DuckDB: counted, then streamed in the engine's chunks. */
  async function exportDuckdb(
    instance: DuckDBInstance,
    prepared: { text: string; values: ReturnType<typeof duckdbValues> },
    request: ExportRequest,
  ): Promise<RowStream> {
    const release = await admit(request.scope.tenantId ?? 'no-tenant', request.signal);
    let connection: DuckDBConnection;
    try {
      connection = await instance.connect();
    } catch (error) {
      release();
      throw duckdbFailure(error, null);
    }
    let timedOutFlag = false;
    const interrupt = () => connection.interrupt();
    const timer = setTimeout(() => {
      timedOutFlag = true;
      interrupt();
    }, settings.exportTimeoutMs);
    request.signal?.addEventListener('abort', interrupt, { once: true });
    // The chunk being fetched, if any: the download's client can leave (and `close()` come) while a
    // fetch runs on a worker thread, and the connection must outlive it (see bothSettled).
    let fetching: Promise<unknown> = Promise.resolve();
    // The engine's close() closes a download no one has finished or closed, as its reader would.
    const endWork = startWork(() => close());
    const close = onceOnly(() => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', interrupt);
      interrupt();
      void fetching.then(() => {
        connection.closeSync();
        release();
        endWork();
      });
    });
    const failure = (error: unknown) => duckdbFailure(error, timedOutFlag ? settings.exportTimeoutMs : null);
    try {
      const wrapped = `(\n${prepared.text}\n) AS studio_result`;
      const shapeReader = await connection.runAndReadAll(`SELECT * FROM ${wrapped} LIMIT 0`, prepared.values);
      const columns = shapeReader.columnNames().map((name, index) => ({
        name,
        type: shapeReader.columnType(index).toString(),
      }));
      const typeIds = columns.map((_, index) => shapeReader.columnTypeId(index));
      const countReader = await connection.runAndReadAll(`SELECT count(*) FROM ${wrapped}`, prepared.values);
      const count = Number(countReader.getRows()[0]?.[0] ?? 0);
      if (count > settings.exportMaxRows) throw tooLargeToExport(count);
      const orderBy = pageOrderBy(
        columns.map((column) => column.name),
        request.sort ?? [],
      );
      const result = await connection.stream(`SELECT * FROM ${wrapped}${orderBy}`, prepared.values);
      async function* chunks() {
        try {
          const pages = result.yieldRowsJson();
          for (;;) {
            const next = pages.next();
            fetching = next.catch(() => undefined);
            const page = await next;
            if (page.done === true) break;
            yield jsonRows(typeIds, page.value);
          }
        } catch (error) {
          throw failure(error);
        } finally {
          close();
        }
      }
      return { columns, count, chunks: chunks(), close };
    } catch (error) {
      close();
      throw failure(error);
    }
  }

  async function exportRows(request: ExportRequest): Promise<RowStream> {
    if (closed) throw new AppError('source_unavailable', 'The Studio engine is shutting down.', { 'Retry-After': '5' });
    if (request.source === 'tenant') {
      const { tenantId, sealed, access } = tenantDatabase(request.scope);
      const bound = bindPlaceholders(request.sql, (index) => `$${index + 1}`);
      const values = valuesFor(bound.names, request.params);
      await checkPostgresSql(bound.text, values.length);
      const release = await admit(tenantId, request.signal);
      try {
        // The pool's client is held until the stream ends or closes; `use` only lends the pool.
        const stream = await access.use(tenantId, sealed, (pool) =>
          streamPostgres(pool, {
            text: bound.text,
            values,
            sort: request.sort ?? [],
            maxRows: settings.exportMaxRows,
            timeoutMs: settings.exportTimeoutMs,
            signal: request.signal ?? new AbortController().signal,
          }),
        );
        return alsoFreeing(stream, release);
      } catch (error) {
        release();
        if (error instanceof AppError) throw error;
        log.warn({ tenantId, err: firstLine(describeError(error)) }, 'a Studio tenant source failed');
        throw new AppError('source_unavailable', "The tenant's database is not available now.", { 'Retry-After': '5' });
      }
    }
    const source = await duckdbSource(request);
    try {
      const prepared = await prepareDuckdb(source.instance, request, source.tables);
      // The database stays open until the download ends, even if a new extract retires it meanwhile.
      const unhold = source.hold();
      try {
        const stream = await exportDuckdb(source.instance, prepared, request);
        return alsoFreeing(stream, unhold);
      } catch (error) {
        unhold();
        throw error;
      }
    } finally {
      source.release();
    }
  }

  return {
    listSources(scope) {
      const sources: SourceSummary[] = [
        {
          id: 'demo',
          kind: 'demo',
          name: 'Price transparency demo',
          description: 'Generated in-network rates, hospital charges and a physician fee schedule.',
        },
      ];
      if (deps.tenantDatabases && scope.tenantId !== null && scope.sealedDburl) {
        sources.push({
          id: 'tenant',
          kind: 'tenant',
          name: "The tenant's database",
          description: "The tenant's own PostgreSQL database (its dburl), queried live and read-only.",
        });
      }
      // Every tenant has one, empty until a file is uploaded.
      if (deps.extracts && scope.tenantId !== null) {
        sources.push({
          id: 'extract',
          kind: 'extract',
          name: "The tenant's extracts",
          description: 'CSV and Parquet files uploaded to the tenant, each a table, queried with DuckDB.',
        });
      }
      return Promise.resolve(sources);
    },
    async listTables(scope, source) {
      if (source === 'tenant') return onTenantPool(scope, (pool) => listPostgresTables(pool));
      if (source === 'extract') {
        if (!deps.extracts || scope.tenantId === null) throw notFoundSource(source);
        const extracts = await deps.extracts.list(scope.tenantId);
        return extracts.map((extract) => ({ name: extract.name, columns: extract.columns }));
      }
      if (source !== 'demo') throw notFoundSource(source);
      const instance = await demoInstance();
      const connection = await instance.connect();
      try {
        const reader = await connection.runAndReadAll(
          `SELECT table_name, column_name, data_type FROM information_schema.columns
           WHERE table_schema = 'main' ORDER BY table_name, ordinal_position`,
        );
        const tables = new Map<string, TableSummary>();
        for (const [table, column, type] of reader.getRows() as [string, string, string][]) {
          const entry = tables.get(table) ?? { name: table, columns: [] };
          entry.columns.push({ name: column, type });
          tables.set(table, entry);
        }
        return [...tables.values()];
      } finally {
        connection.closeSync();
      }
    },
    run,
    exportRows,
    async forgetTenant(tenantId) {
      forgotten.add(tenantId);
      const database = extractDatabases.get(tenantId);
      if (database) {
        extractDatabases.delete(tenantId);
        database.retired = true;
        void closeWhenUnused(database);
      }
      await cache.dropTenant(tenantId);
    },
    async heldFor(tenantId) {
      return { extractDatabase: extractDatabases.has(tenantId), cachedResults: await cache.countTenant(tenantId) };
    },
    async close() {
      closed = true;
      // Nothing closes under a running query (see bothSettled): stop every one, and wait.
      for (const stop of underWay.values()) stop();
      await Promise.all(underWay.keys());
      for (const database of extractDatabases.values()) {
        database.retired = true;
        void closeWhenUnused(database);
      }
      extractDatabases.clear();
      const pending = demo;
      demo = undefined;
      if (pending) {
        const instance = await pending.catch(() => undefined);
        instance?.closeSync();
      }
    },
  };
}

/**
 * Both queries' results, once both have finished. A DuckDB connection must never be closed while a
 * query of its runs on a worker thread: the query's end then frees the connection inside its own
 * lock, and that worker thread waits forever (and with it the process's exit). So when one fails,
 * the other is interrupted (`stop`) and awaited before the caller closes their connections.
 */
async function bothSettled<A, B>(first: Promise<A>, second: Promise<B>, stop: () => void): Promise<[A, B]> {
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
function duckdbFailure(error: unknown, timedOutAfterMs: number | null): AppError {
  if (error instanceof AppError) return error;
  const message = describeError(error);
  if (message.includes('INTERRUPT')) {
    if (timedOutAfterMs !== null) return timedOut(timedOutAfterMs / 1000);
    return new AppError('query_refused', 'The query was cancelled.');
  }
  if (message.includes('Out of Memory')) {
    return refused('The query needs more memory than a report may use: aggregate or filter it.');
  }
  return refused(`The query failed: ${firstLine(message)}`);
}

function elapsedSince(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
