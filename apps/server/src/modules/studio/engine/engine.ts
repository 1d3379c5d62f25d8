import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../config.js';
import { AppError } from '../../../lib/errors.js';

/** A tenant has one source of each kind; the id of a source is its kind. */
export type SourceId = 'demo' | 'tenant' | 'extract';

/** Whose data a call may see: `tenantId` null means no tenant was chosen (the demo source only). */
export interface StudioScope {
  tenantId: string | null;
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
  close(): Promise<void>;
}

export interface StudioEngineDeps {
  config: Config;
  log: FastifyBaseLogger;
}

/** The engine behind Studio's reports (issue 31); the parts grow in the files beside this one. */
export function createStudioEngine(deps: StudioEngineDeps): StudioEngine {
  const unavailable = () =>
    new AppError('source_unavailable', 'The Studio engine is not ready yet.', { 'Retry-After': '5' });
  void deps;
  return {
    listSources: () => Promise.resolve([]),
    listTables: () => Promise.reject(unavailable()),
    run: () => Promise.reject(unavailable()),
    close: () => Promise.resolve(),
  };
}
