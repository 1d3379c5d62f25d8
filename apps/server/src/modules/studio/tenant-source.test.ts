import type { ReportPublic, ReportRunResult } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { definition, preview, useTenantSourceWorld, world } from '../../../test/tenant-source-world.js';

/**
 * Studio's `tenant` source on a real PostgreSQL database per tenant: live, read-only, guarded by
 * PostgreSQL's own parser, paged with an exact count, and never reaching another tenant's database.
 */
useTenantSourceWorld();

describe('the tenant source', () => {
  it('is listed for a tenant with a database, with its tables and columns', async () => {
    const headers = { ...world.memberA.headers, 'x-tenant-id': world.tenantA.id };
    const sources = await world.ctx.app.inject({ url: '/api/v1/studio/sources', headers });
    expect(sources.statusCode, sources.body).toBe(200);
    expect(sources.json<{ data: { id: string }[] }>().data.map((source) => source.id)).toEqual([
      'demo',
      'tenant',
      'extract',
    ]);
    const tables = await world.ctx.app.inject({ url: '/api/v1/studio/sources/tenant/tables', headers });
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
    const noTenant = await world.ctx.app.inject({
      url: '/api/v1/studio/sources/tenant/tables',
      headers: world.memberA.headers,
    });
    expect(noTenant.statusCode).toBe(404);
  });

  it('pages a table with an exact count, binds :name parameters and sorts by a result column', async () => {
    const sql = 'SELECT id, region, amount, sold_on FROM sales WHERE region = :region';
    const first = await preview(world.tenantA.id, sql, { limit: 10, sort: [{ column: 'id', direction: 'desc' }] });
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
    const past = (await preview(world.tenantA.id, sql, { skip: 500, limit: 10 })).json<ReportRunResult>();
    expect(past).toMatchObject({ rows: [], count: 125 });
    const injected = await preview(world.tenantA.id, sql, { params: { region: "north' OR '1'='1" } });
    expect(injected.json<ReportRunResult>()).toMatchObject({ rows: [], count: 0 });
    const badSort = await preview(world.tenantA.id, sql, { sort: [{ column: 'password', direction: 'asc' }] });
    expect(badSort.statusCode).toBe(422);
    expect(badSort.json()).toEqual({ detail: 'The result has no column password to sort by.', code: 'query_refused' });
  });

  it('runs a saved report for a member, and caps a KPI that returns too many rows', async () => {
    const created = await world.ctx.app.inject({
      method: 'POST',
      url: '/api/v1/studio/reports',
      headers: { ...world.admin.headers, 'x-tenant-id': world.tenantA.id },
      payload: { definition: definition('SELECT count(*) AS n FROM sales WHERE region = :region', 'kpi') },
    });
    expect(created.statusCode, created.body).toBe(201);
    const report = created.json<ReportPublic>();
    const ran = await world.ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${report.id}/run`,
      headers: { ...world.memberA.headers, 'x-tenant-id': world.tenantA.id },
      payload: { block: 'b', params: { region: 'south' } },
    });
    expect(ran.statusCode, ran.body).toBe(200);
    expect(ran.json<ReportRunResult>().rows).toEqual([[125]]);
    const other = await world.ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${report.id}/run`,
      headers: { ...world.memberB.headers, 'x-tenant-id': world.tenantB.id },
      payload: { block: 'b' },
    });
    expect(other.statusCode).toBe(404);
  });

  it('downloads a whole table through a cursor, in the order asked, and cannot be read by another tenant', async () => {
    const created = await world.ctx.app.inject({
      method: 'POST',
      url: '/api/v1/studio/reports',
      headers: { ...world.admin.headers, 'x-tenant-id': world.tenantA.id },
      payload: { definition: definition('SELECT id, region, amount FROM sales WHERE region = :region') },
    });
    expect(created.statusCode, created.body).toBe(201);
    const report = created.json<ReportPublic>();
    const response = await world.ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${report.id}/export`,
      headers: { ...world.memberA.headers, 'x-tenant-id': world.tenantA.id },
      payload: { block: 'b', params: { region: 'south' }, sort: [{ column: 'id', direction: 'desc' }] },
    });
    expect(response.statusCode, response.body).toBe(200);
    const lines = response.body.split('\r\n').filter((line) => line !== '');
    expect(lines).toHaveLength(126);
    expect(lines[0]).toBe('id,region,amount');
    expect(lines[1]).toBe('249,south,373.5');
    expect(lines.at(-1)).toBe('1,south,1.5');
    const other = await world.ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${report.id}/export`,
      headers: { ...world.memberB.headers, 'x-tenant-id': world.tenantB.id },
      payload: { block: 'b' },
    });
    expect(other.statusCode).toBe(404);
    // The cursor's transaction ended: the pool's client is free for the next run.
    const after = await preview(world.tenantA.id, 'SELECT count(*) AS n FROM sales', {}, 'kpi');
    expect(after.statusCode, after.body).toBe(200);
  });

  it("reads only the chosen tenant's database: tenant B's table does not exist in A", async () => {
    const response = await preview(world.tenantA.id, 'SELECT v FROM secrets_of_b');
    expect(response.statusCode).toBe(422);
    expect(response.json<{ code: string }>().code).toBe('query_refused');
    const own = await preview(world.tenantB.id, 'SELECT v FROM secrets_of_b');
    expect(own.json<ReportRunResult>().rows).toEqual([['b-only']]);
  });
});

describe('the agent’s guided builder on the tenant source', () => {
  it('compiles a plan into PostgreSQL that the database runs: a median, a month grain and bound values', async () => {
    const response = await world.ctx.app.inject({
      method: 'POST',
      url: '/api/v1/agent/plan/compile',
      headers: { ...world.admin.headers, 'x-tenant-id': world.tenantA.id },
      payload: {
        source: 'tenant',
        plan: {
          title: 'Median sale by month',
          table: 'sales',
          measures: [
            { agg: 'median', column: 'amount', as: 'median_amount' },
            { agg: 'count', column: null, as: 'sales' },
          ],
          dimensions: [{ column: 'sold_on', grain: 'month' }],
          filters: [
            { column: 'region', op: '=', value: 'north' },
            { column: 'sold_on', op: '<', value: '2026-03-01' },
          ],
          sort: [],
          limit: null,
          chart: 'line',
        },
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const compiled = response.json<{ sql: string; preview: ReportRunResult }>();
    expect(compiled.sql).toContain('percentile_cont(0.5) WITHIN GROUP');
    // North is every even id: 15 sales in January (2 to 30), 14 in February (32 to 58).
    expect(compiled.preview.rows.map((row) => row[2])).toEqual([15, 14]);
  });
});
