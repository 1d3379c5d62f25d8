import type { ReportPublic, ReportRunResult, TenantPublic } from '@dataplatform/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, type TestContext, type TestUser } from '../../../test/harness.js';
import { startTenantDatabases, type TenantDatabase } from '../../../test/tenant-databases.js';

/**
 * Studio's `tenant` source on a real PostgreSQL database per tenant (the server of TEST_DATABASE_URL,
 * or PGlite over the wire): live, read-only, guarded by PostgreSQL's own parser, paged with an
 * exact count, and never reaching another tenant's database.
 */
let ctx: TestContext;
let databases: TenantDatabase[];
let admin: TestUser;
let memberA: TestUser;
let memberB: TestUser;
let tenantA: TenantPublic;
let tenantB: TenantPublic;

const definition = (sql: string, kind: 'table' | 'kpi' = 'table') =>
  kind === 'table'
    ? `title: T\nsource: tenant\nparams:\n  region: { type: text, default: "north" }\nblocks:\n  - id: b\n    table: { sql: ${JSON.stringify(sql)}, page_size: 50 }\n`
    : `title: T\nsource: tenant\nparams:\n  region: { type: text, default: "north" }\nblocks:\n  - id: b\n    kpi: { sql: ${JSON.stringify(sql)}, value: n }\n`;

function preview(tenantId: string, sql: string, body: object = {}, kind: 'table' | 'kpi' = 'table') {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/studio/preview',
    headers: { ...admin.headers, 'x-tenant-id': tenantId },
    payload: { definition: definition(sql, kind), block: 'b', ...body },
  });
}

beforeAll(async () => {
  ctx = await createTestContext({
    env: { STUDIO_QUERY_TIMEOUT_SECONDS: '3' },
    config: {
      tenantDatabases: { maxPools: 10, poolSize: 4, idleMs: 60_000, connectTimeoutMs: 5000, allowedHosts: null },
    },
  });
  databases = await startTenantDatabases(2);
  const [dbA, dbB] = databases as [TenantDatabase, TenantDatabase];
  await dbA.exec(`CREATE TABLE sales (id int PRIMARY KEY, region text NOT NULL, amount numeric(10,2), sold_on date);
    INSERT INTO sales SELECT i, CASE WHEN i % 2 = 0 THEN 'north' ELSE 'south' END, i * 1.5, DATE '2026-01-01' + i
    FROM generate_series(1, 250) AS i;`);
  await dbB.exec(`CREATE TABLE secrets_of_b (v text); INSERT INTO secrets_of_b VALUES ('b-only');`);
  admin = await createUser(ctx, { isSuperuser: true });
  memberA = await createUser(ctx);
  memberB = await createUser(ctx);
  const create = async (name: string, dburl: string, member: TestUser) => {
    const tenant = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/tenants/',
        headers: admin.headers,
        payload: { name, dburl },
      })
    ).json<TenantPublic>();
    await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/tenants/${tenant.id}/members`,
      headers: admin.headers,
      payload: [member.id],
    });
    return tenant;
  };
  tenantA = await create('Studio tenant A', dbA.url, memberA);
  tenantB = await create('Studio tenant B', dbB.url, memberB);
}, 180_000);

afterAll(async () => {
  await ctx?.close();
  await Promise.all((databases ?? []).map((database) => database.close()));
});

describe('the tenant source', () => {
  it('is listed for a tenant with a database, with its tables and columns', async () => {
    const headers = { ...memberA.headers, 'x-tenant-id': tenantA.id };
    const sources = await ctx.app.inject({ url: '/api/v1/studio/sources', headers });
    expect(sources.statusCode, sources.body).toBe(200);
    expect(sources.json<{ data: { id: string }[] }>().data.map((source) => source.id)).toEqual([
      'demo',
      'tenant',
      'extract',
    ]);
    const tables = await ctx.app.inject({ url: '/api/v1/studio/sources/tenant/tables', headers });
    expect(tables.statusCode, tables.body).toBe(200);
    expect(tables.json()).toEqual({
      data: [
        {
          name: 'sales',
          columns: [
            { name: 'id', type: 'integer' },
            { name: 'region', type: 'text' },
            { name: 'amount', type: 'numeric(10,2)' },
            { name: 'sold_on', type: 'date' },
          ],
        },
      ],
      count: 1,
    });
    const noTenant = await ctx.app.inject({ url: '/api/v1/studio/sources/tenant/tables', headers: memberA.headers });
    expect(noTenant.statusCode).toBe(404);
  });

  it('pages a table with an exact count, binds :name parameters and sorts by a result column', async () => {
    const sql = 'SELECT id, region, amount, sold_on FROM sales WHERE region = :region';
    const first = await preview(tenantA.id, sql, { limit: 10, sort: [{ column: 'id', direction: 'desc' }] });
    expect(first.statusCode, first.body).toBe(200);
    const result = first.json<ReportRunResult>();
    expect(result.count).toBe(125);
    expect(result.columns).toEqual([
      { name: 'id', type: 'integer' },
      { name: 'region', type: 'text' },
      { name: 'amount', type: 'numeric' },
      { name: 'sold_on', type: 'date' },
    ]);
    expect(result.rows[0]).toEqual([250, 'north', 375, '2026-09-08']);
    expect(result.rows).toHaveLength(10);
    const past = (await preview(tenantA.id, sql, { skip: 500, limit: 10 })).json<ReportRunResult>();
    expect(past).toMatchObject({ rows: [], count: 125 });
    const injected = await preview(tenantA.id, sql, { params: { region: "north' OR '1'='1" } });
    expect(injected.json<ReportRunResult>()).toMatchObject({ rows: [], count: 0 });
    const badSort = await preview(tenantA.id, sql, { sort: [{ column: 'password', direction: 'asc' }] });
    expect(badSort.statusCode).toBe(422);
    expect(badSort.json()).toEqual({ detail: 'The result has no column password to sort by.', code: 'query_refused' });
  });

  it('runs a saved report for a member, and caps a KPI that returns too many rows', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/studio/reports',
      headers: { ...admin.headers, 'x-tenant-id': tenantA.id },
      payload: { definition: definition('SELECT count(*) AS n FROM sales WHERE region = :region', 'kpi') },
    });
    expect(created.statusCode, created.body).toBe(201);
    const report = created.json<ReportPublic>();
    const ran = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${report.id}/run`,
      headers: { ...memberA.headers, 'x-tenant-id': tenantA.id },
      payload: { block: 'b', params: { region: 'south' } },
    });
    expect(ran.statusCode, ran.body).toBe(200);
    expect(ran.json<ReportRunResult>().rows).toEqual([[125]]);
    const other = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${report.id}/run`,
      headers: { ...memberB.headers, 'x-tenant-id': tenantB.id },
      payload: { block: 'b' },
    });
    expect(other.statusCode).toBe(404);
  });

  it("reads only the chosen tenant's database: tenant B's table does not exist in A", async () => {
    const response = await preview(tenantA.id, 'SELECT v FROM secrets_of_b');
    expect(response.statusCode).toBe(422);
    expect(response.json<{ code: string }>().code).toBe('query_refused');
    const own = await preview(tenantB.id, 'SELECT v FROM secrets_of_b');
    expect(own.json<ReportRunResult>().rows).toEqual([['b-only']]);
  });

  // PGlite runs in this process and has no timer signal: a statement_timeout cannot stop its query,
  // which would block the test's own event loop. The time limit is proved on the PostgreSQL server.
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'stops a query at the time limit in the database, and the next query answers',
    async () => {
      const slow = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/studio/preview',
        headers: { ...admin.headers, 'x-tenant-id': tenantA.id },
        payload: {
          definition: definition(
            'SELECT count(*) AS n FROM generate_series(1, 100000000) a, generate_series(1, 100000000) b',
            'kpi',
          ),
          block: 'b',
        },
      });
      expect(slow.statusCode, slow.body).toBe(422);
      expect(slow.json<{ code: string }>().code).toBe('query_timeout');
      const next = await preview(tenantA.id, 'SELECT count(*) AS n FROM sales', {}, 'kpi');
      expect(next.json<ReportRunResult>().rows).toEqual([[250]]);
    },
    60_000,
  );

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'stops the query in the database when the client disconnects (STUDIO-REPORT-8)',
    async () => {
      const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const marker = 'studio_cancel_marker';
      const controller = new AbortController();
      const sent = fetch(`${address}/api/v1/studio/preview`, {
        method: 'POST',
        headers: { ...admin.headers, 'x-tenant-id': tenantA.id, 'content-type': 'application/json' },
        body: JSON.stringify({
          definition: definition(
            `SELECT count(*) AS n FROM generate_series(1, 100000000) a, generate_series(1, 100000000) b WHERE 'x' <> '${marker}'`,
            'kpi',
          ),
          block: 'b',
        }),
        signal: controller.signal,
      }).catch(() => undefined);
      const watcher = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await watcher.connect();
      const running = async () =>
        (
          await watcher.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()",
            [`%${marker}%`],
          )
        ).rows[0]?.n ?? 0;
      try {
        let seen = false;
        for (let tries = 0; tries < 40 && !seen; tries += 1) {
          seen = (await running()) > 0;
          if (!seen) await new Promise((resolve) => setTimeout(resolve, 25));
        }
        expect(seen).toBe(true);
        controller.abort();
        await sent;
        const abortedAt = performance.now();
        while ((await running()) > 0 && performance.now() - abortedAt < 5000) {
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        // Gone well before the 3 s statement timeout would have ended it.
        expect(await running()).toBe(0);
        expect(performance.now() - abortedAt).toBeLessThan(2000);
      } finally {
        await watcher.end();
      }
    },
    30_000,
  );
});
