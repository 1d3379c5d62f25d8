import type { StudioConfig } from '../../../config.js';
import type { ServiceMetrics } from '../../../lib/metrics.js';
import type { Admission } from './admission.js';
import { executeDuckdb, type DuckdbExecution, type createDuckdbPreparer } from './duckdb-queries.js';
import type { InstancePool } from './instances.js';
import { executePostgres } from './postgres-source.js';
import { resultKey, type ResultCache } from './result-cache.js';
import { createSingleFlight } from './single-flight.js';
import { refused } from './sql-text.js';
import { preparePostgres, type TenantDatabase } from './tenant-database.js';
import type { RunRequest, RunResult, StoredResult } from './types.js';
import type { WorkUnderWay } from './work-under-way.js';

/** Most rows one table page may hold. */
const MAX_PAGE_ROWS = 1_000;

export interface RunsDeps {
  settings: Pick<StudioConfig, 'rowCap' | 'queryTimeoutMs'>;
  cache: ResultCache;
  admission: Admission;
  instances: InstancePool;
  tenant: TenantDatabase;
  prepareDuckdb: ReturnType<typeof createDuckdbPreparer>;
  work: WorkUnderWay;
  /** Deleted tenants: a run that began before the deletion caches nothing for them. */
  forgotten: ReadonlySet<string>;
  metrics?: Pick<ServiceMetrics, 'studioQueryExecuted'> | undefined;
}

type Paging = { skip: number; limit: number; sort: NonNullable<RunRequest['sort']> };

/**
 * A block's run, on any source: its paging checked, its result from the cache when the report has a
 * cache time, else executed once for every identical run in flight (single flight), in one of the
 * tenant's query slots (admission), and cached.
 */
export function createRuns(deps: RunsDeps) {
  const { settings, cache, admission } = deps;
  const flights = createSingleFlight<StoredResult>();

  function checkPaging(request: RunRequest): Paging {
    const skip = request.skip ?? 0;
    const limit = request.limit ?? (request.shape === 'page' ? 50 : settings.rowCap);
    if (!Number.isSafeInteger(skip) || skip < 0) throw refused('skip must be a whole number from 0.');
    const most = request.shape === 'page' ? MAX_PAGE_ROWS : settings.rowCap;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > most) {
      throw refused(`limit must be a whole number from 1 to ${most}.`);
    }
    return { skip, limit, sort: request.sort ?? [] };
  }

  /**
   * The result under `key`: cached for `request`'s cache time, else executed by `execute` (shared by
   * identical runs, in a slot of `bucket`). A result of a tenant deleted meanwhile is not cached.
   */
  async function cachedOrExecuted(
    request: RunRequest,
    key: string,
    started: number,
    slot: { bucket: string; tenantId: string | undefined },
    execute: (signal: AbortSignal) => Promise<StoredResult>,
  ): Promise<RunResult> {
    const ttl = request.cacheKey !== undefined ? (request.cacheTtlSeconds ?? 0) : 0;
    if (ttl > 0) {
      const hit = await cache.get(key);
      if (hit) return { ...hit, cached: true, elapsed_ms: elapsedSince(started) };
    }
    const result = await flights.run(key, request.signal, async (signal) => {
      const release = await admission.admit(slot.bucket, signal);
      try {
        deps.metrics?.studioQueryExecuted(request.source);
        const stored = await execute(signal);
        if (ttl > 0 && !(slot.tenantId !== undefined && deps.forgotten.has(slot.tenantId))) {
          await cache.set(key, stored, ttl);
        }
        return stored;
      } finally {
        release();
      }
    });
    return { ...result, cached: false, elapsed_ms: elapsedSince(started) };
  }

  /** A block on the tenant's own PostgreSQL database: guarded by its parser, run read-only and bounded. */
  async function runTenant(request: RunRequest, paging: Paging, started: number): Promise<RunResult> {
    const { tenantId, sealed } = deps.tenant.target(request.scope);
    const prepared = await preparePostgres(request);
    // Live data: a result is reused only for the report's cache time, per tenant and per URL.
    const key = resultKey(
      [
        `tenant:${tenantId}:${sealed}`,
        prepared.text,
        prepared.values,
        request.shape,
        paging.skip,
        paging.limit,
        paging.sort,
      ],
      tenantId,
    );
    return cachedOrExecuted(request, key, started, { bucket: tenantId, tenantId }, (signal) =>
      deps.tenant.use(request.scope, (pool) =>
        executePostgres(pool, {
          ...prepared,
          shape: request.shape,
          ...paging,
          rowCap: settings.rowCap,
          timeoutMs: settings.queryTimeoutMs,
          signal,
        }),
      ),
    );
  }

  /** A block on the demo or the tenant's extracts: guarded by DuckDB's parser, run in the engine. */
  async function runDuckdb(request: RunRequest, paging: Paging, started: number): Promise<RunResult> {
    const source = await deps.instances.source(request);
    try {
      const { instance } = source;
      const prepared = await deps.prepareDuckdb(instance, request, source.tables);
      const execution: DuckdbExecution = { ...prepared, shape: request.shape, ...paging };
      const key = resultKey(
        [
          source.version,
          execution.text,
          Object.entries(execution.values).map(([k, v]) => [k, typeof v === 'bigint' ? `${v}n` : v]),
          request.shape,
          paging.skip,
          paging.limit,
          paging.sort,
        ],
        source.tenantId,
      );
      const slot = { bucket: request.scope.tenantId ?? 'no-tenant', tenantId: source.tenantId };
      return await cachedOrExecuted(request, key, started, slot, async (signal) => {
        const unhold = source.hold();
        try {
          return await executeDuckdb(instance, execution, signal, settings, deps.work);
        } finally {
          unhold();
        }
      });
    } finally {
      source.release();
    }
  }

  return {
    async run(request: RunRequest): Promise<RunResult> {
      const started = performance.now();
      const paging = checkPaging(request);
      if (request.source === 'tenant') return runTenant(request, paging, started);
      return runDuckdb(request, paging, started);
    },
  };
}

function elapsedSince(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
