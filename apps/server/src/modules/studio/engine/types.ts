import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Config } from '../../../config.js';
import type { ServiceMetrics } from '../../../lib/metrics.js';
import type { RedisConnection } from '../../../lib/redis.js';
import type { ExtractStorage } from './extract-storage.js';

/*
 * What callers ask the engine and what it answers, in one file: the engine's other files import
 * their types from here (this file imports none of theirs but the store's), so imports run one way.
 */

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

/** Runs `work` on the pool of the tenant's own database (host allow-list checked by the caller's service). */
export interface TenantDatabaseAccess {
  use<T>(tenantId: string, sealedDburl: string, work: (pool: pg.Pool) => Promise<T>): Promise<T>;
}

/** A result as executed and cached: a run's answer without its `cached` and `elapsed_ms`. */
export type StoredResult = Omit<RunResult, 'cached' | 'elapsed_ms'>;
