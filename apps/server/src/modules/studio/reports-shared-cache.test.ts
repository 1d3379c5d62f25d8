import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ReportRunResult } from '@dataplatform/contract';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import type { Config } from '../../config.js';
import { createTestContext, createUser, type TestContext, type TestUser } from '../../../test/harness.js';
import { METRICS_TOKEN, scrape } from '../../../test/metrics.js';
import { createTenant, tenantHeaders } from '../../../test/tenant-fixtures.js';
import { deleteRedisKeys, openRedisInspector, TEST_REDIS_URL, uniqueRedisPrefix } from '../../../test/redis.js';

/**
 * Two instances of the app with REDIS_URL set, as a fleet runs them (decision 049): one database,
 * one data folder, one Redis. A report's result one instance ran is the other's cache hit, so a
 * dashboard behind a load balancer costs one query whichever instance each viewer reaches.
 * Executions are read from each instance's own /metrics (`dp_studio_query_executions_total`).
 */
let ctx: TestContext;
let dir: string;
let user: TestUser;
let inspector: Redis;
let prefix: string;
let instances: [FastifyInstance, FastifyInstance];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'studio-shared-cache-'));
  ctx = await createTestContext({ env: { METRICS_TOKEN } });
  user = await createUser(ctx);
  inspector = await openRedisInspector();
  prefix = uniqueRedisPrefix();
  const config: Config = {
    ...ctx.config,
    redis: { url: TEST_REDIS_URL, keyPrefix: prefix },
    studio: { ...ctx.config.studio, dir, demoRows: 2_000 },
  };
  const start = async () => {
    const app = await buildApp(config, { database: ctx.database, clock: ctx.clock });
    await app.ready();
    return app;
  };
  instances = [await start(), await start()];
}, 120_000);

afterAll(async () => {
  await Promise.all((instances ?? []).map((app) => app.close()));
  if (inspector) {
    await deleteRedisKeys(inspector, prefix);
    inspector.disconnect();
  }
  await ctx?.close();
  await rm(dir, { recursive: true, force: true });
});

const run = (app: FastifyInstance, body: object) =>
  app.inject({ method: 'POST', url: '/api/v1/studio/reports/payer/run', headers: user.headers, payload: body });

async function executions(app: FastifyInstance): Promise<number> {
  return (await scrape(app)).value('dp_studio_query_executions_total', { source: 'demo' }) ?? 0;
}

describe('two instances sharing Redis share the report cache', () => {
  it('answers from the cache on the second instance a run the first one did, and runs nothing there', async () => {
    const [a, b] = instances;
    const body = { block: 'median_by_payer', params: { code: '99214', state: '' } };
    const [aBefore, bBefore] = [await executions(a), await executions(b)];

    const first = await run(a, body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<ReportRunResult>().cached).toBe(false);
    expect(await executions(a)).toBe(aBefore + 1);

    const second = await run(b, body);
    expect(second.statusCode, second.body).toBe(200);
    const result = second.json<ReportRunResult>();
    expect(result.cached).toBe(true);
    expect({ ...result, elapsed_ms: 0 }).toEqual({ ...first.json<ReportRunResult>(), cached: true, elapsed_ms: 0 });
    expect(await executions(b)).toBe(bBefore);
    // The result lives in Redis under the instances' prefix, with the report's cache time (10m).
    const keys = await inspector.keys(`${prefix}studio-result:*`);
    expect(keys).toHaveLength(1);
    const ttl = await inspector.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(600_000);
  });

  it('runs identical concurrent runs once on each instance, and the later ones of either from the cache', async () => {
    const [a, b] = instances;
    const body = { block: 'distribution', params: { code: '70450', state: '' } };
    const [aBefore, bBefore] = [await executions(a), await executions(b)];

    const burst = await Promise.all(Array.from({ length: 10 }, () => run(a, body)));
    expect(burst.map((response) => response.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(await executions(a)).toBe(aBefore + 1);

    const later = await Promise.all([run(a, body), run(b, body), run(b, body)]);
    expect(later.map((response) => response.json<ReportRunResult>().cached)).toEqual([true, true, true]);
    expect(await executions(a)).toBe(aBefore + 1);
    expect(await executions(b)).toBe(bBefore);
  });

  it("drops a deleted tenant's cached results from Redis, and no other tenant's", async () => {
    const [a] = instances;
    const admin = await createUser(ctx, { isSuperuser: true });
    const [doomed, kept] = [await createTenant(ctx, admin), await createTenant(ctx, admin)];
    for (const tenant of [doomed, kept]) {
      const headers = tenantHeaders(admin, tenant.id);
      const uploaded = await a.inject({
        method: 'POST',
        url: '/api/v1/studio/extracts?name=sales',
        headers: { ...headers, 'content-type': 'text/csv' },
        payload: 'region,units\nnorth,3\nsouth,4\n',
      });
      expect(uploaded.statusCode, uploaded.body).toBe(201);
      const report = await a.inject({
        method: 'POST',
        url: '/api/v1/studio/reports',
        headers,
        payload: {
          definition:
            'title: Units\nsource: extract\ncache: 5m\nblocks:\n  - id: u\n    kpi: { sql: "SELECT sum(units) AS v FROM sales", value: v }\n',
        },
      });
      expect(report.statusCode, report.body).toBe(201);
      const ran = await a.inject({
        method: 'POST',
        url: `/api/v1/studio/reports/${report.json<{ id: string }>().id}/run`,
        headers,
        payload: { block: 'u' },
      });
      expect(ran.json<ReportRunResult>()).toMatchObject({ rows: [[7]], cached: false });
    }
    const keysOf = (tenantId: string) => inspector.keys(`${prefix}studio-result:t:${tenantId}:*`);
    expect(await keysOf(doomed.id)).toHaveLength(1);
    expect(await a.services.studioEngine.heldFor(doomed.id)).toMatchObject({ cachedResults: 1 });

    const deleted = await a.inject({ method: 'DELETE', url: `/api/v1/tenants/${doomed.id}`, headers: admin.headers });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await keysOf(doomed.id)).toEqual([]);
    expect(await a.services.studioEngine.heldFor(doomed.id)).toMatchObject({ cachedResults: 0 });
    expect(await keysOf(kept.id)).toHaveLength(1);
    // The first upload starts the instance's DuckDB loader: seconds on a busy machine.
  }, 90_000);
});
