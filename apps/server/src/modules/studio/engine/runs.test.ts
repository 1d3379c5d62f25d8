import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.js';
import { createAdmission } from './admission.js';
import { createDuckdbPreparer } from './duckdb-queries.js';
import { createInstancePool, type InstancePool } from './instances.js';
import { createMemoryCache } from './result-cache.js';
import { createRuns } from './runs.js';
import { createTenantDatabase } from './tenant-database.js';
import type { RunRequest } from './types.js';
import { createWorkUnderWay } from './work-under-way.js';

const log = Fastify({ logger: false }).log;
let dir: string;
let instances: InstancePool;
let runs: ReturnType<typeof createRuns>;
const executed: string[] = [];

const demo = (sql: string, extra: Partial<RunRequest> = {}): RunRequest => ({
  scope: { tenantId: 't1' },
  source: 'demo',
  sql,
  params: {},
  shape: 'capped',
  ...extra,
});

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'studio-runs-'));
  const config = loadConfig({
    ENVIRONMENT: 'local',
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    DATA_DIR: dir,
    STUDIO_DEMO_ROWS: '1000',
  });
  instances = createInstancePool({ settings: config.studio, log, forgotten: new Set() });
  runs = createRuns({
    settings: config.studio,
    cache: createMemoryCache(),
    admission: createAdmission({ slots: 2, waitMs: 5_000, waitingPerSlot: 8 }),
    instances,
    tenant: createTenantDatabase({ log }),
    prepareDuckdb: createDuckdbPreparer(),
    work: createWorkUnderWay(),
    forgotten: new Set(),
    metrics: { studioQueryExecuted: (source) => executed.push(source) },
  });
}, 60_000);

afterAll(async () => {
  await instances.close();
  await rm(dir, { recursive: true, force: true });
});

describe('runs', () => {
  it('serve a repeated run from the cache for its cache time, and run identical runs in flight once', async () => {
    executed.length = 0;
    const request = demo('SELECT count(*) AS n FROM rates', { cacheKey: 'r:1:b', cacheTtlSeconds: 60 });
    const [a, b] = await Promise.all([runs.run(request), runs.run(request)]);
    expect(a.rows).toEqual([[1000]]);
    expect(b.rows).toEqual(a.rows);
    expect(executed).toEqual(['demo']);
    const again = await runs.run(request);
    expect(again.cached).toBe(true);
    expect(executed).toEqual(['demo']);
    // No cache time: every run executes.
    await runs.run(demo('SELECT count(*) AS n FROM rates'));
    expect(executed).toEqual(['demo', 'demo']);
  });

  it('check the paging before anything runs', async () => {
    await expect(runs.run(demo('SELECT 1', { shape: 'page', limit: 1_001 }))).rejects.toMatchObject({
      errorCode: 'query_refused',
    });
    await expect(runs.run(demo('SELECT 1', { skip: -1 }))).rejects.toMatchObject({ errorCode: 'query_refused' });
    const page = await runs.run(demo('SELECT payer FROM rates', { shape: 'page' }));
    expect(page.rows).toHaveLength(50);
    expect(page.count).toBe(1000);
  });

  it('answer 404 for a source the scope has not', async () => {
    await expect(runs.run(demo('SELECT 1', { source: 'tenant' }))).rejects.toMatchObject({
      errorCode: 'source_not_found',
    });
  });
});
