import { AppError } from '../../../lib/errors.js';
import { createAdmission } from './admission.js';
import { createDuckdbPreparer } from './duckdb-queries.js';
import { createExport } from './export.js';
import { createInstancePool, notFoundSource } from './instances.js';
import { listPostgresTables } from './postgres-source.js';
import { createMemoryCache, createRedisCache, type ResultCache } from './result-cache.js';
import { createRuns } from './runs.js';
import { createTenantDatabase } from './tenant-database.js';
import type { SourceSummary, StudioEngine, StudioEngineDeps } from './types.js';
import { createWorkUnderWay } from './work-under-way.js';

export type * from './types.js';

/** How many queries may wait for a tenant's slots, per slot. */
const QUEUE_PER_SLOT = 8;

const shuttingDown = () =>
  new AppError('source_unavailable', 'The Studio engine is shutting down.', { 'Retry-After': '5' });

/**
 * The engine behind Studio's reports (issue 31, docs/decisions/044-studio-engine.md), composed of
 * its parts: the DuckDB databases (instances.ts), the tenant's own database (tenant-database.ts),
 * the result cache (result-cache.ts), runs with single flight and admission (runs.ts,
 * single-flight.ts, admission.ts) and downloads (export.ts).
 */
export function createStudioEngine(deps: StudioEngineDeps): StudioEngine {
  const { config, log } = deps;
  const settings = config.studio;
  const cache: ResultCache = deps.redis ? createRedisCache(deps.redis) : createMemoryCache();
  /** Deleted tenants: a run that began before the deletion opens nothing and caches nothing for them. */
  const forgotten = new Set<string>();
  const work = createWorkUnderWay();
  const admission = createAdmission({
    slots: settings.maxQueriesPerTenant,
    waitMs: settings.queueWaitMs,
    waitingPerSlot: QUEUE_PER_SLOT,
  });
  const instances = createInstancePool({
    settings,
    log,
    extracts: deps.extracts,
    storage: deps.storage,
    forgotten,
  });
  const tenant = createTenantDatabase({ access: deps.tenantDatabases, log });
  const prepareDuckdb = createDuckdbPreparer();
  const parts = { settings, admission, instances, tenant, prepareDuckdb, work };
  const runs = createRuns({ ...parts, cache, forgotten, metrics: deps.metrics });
  const downloads = createExport(parts);
  let closed = false;

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
      if (tenant.has(scope)) {
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
      if (source === 'tenant') return tenant.use(scope, (pool) => listPostgresTables(pool));
      if (source === 'extract') {
        if (!deps.extracts || scope.tenantId === null) throw notFoundSource(source);
        const extracts = await deps.extracts.list(scope.tenantId);
        return extracts.map((extract) => ({ name: extract.name, columns: extract.columns }));
      }
      if (source !== 'demo') throw notFoundSource(source);
      return instances.demoTables();
    },

    run(request) {
      if (closed) return Promise.reject(shuttingDown());
      return runs.run(request);
    },

    exportRows(request) {
      if (closed) return Promise.reject(shuttingDown());
      return downloads.exportRows(request);
    },

    async forgetTenant(tenantId) {
      forgotten.add(tenantId);
      instances.forget(tenantId);
      await cache.dropTenant(tenantId);
    },

    async heldFor(tenantId) {
      return { extractDatabase: instances.holds(tenantId), cachedResults: await cache.countTenant(tenantId) };
    },

    async close() {
      closed = true;
      // Nothing closes under a running query (see bothSettled): stop every one, and wait.
      await work.stopAll();
      await instances.close();
    },
  };
}
