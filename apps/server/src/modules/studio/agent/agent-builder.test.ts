import { parseReportDefinition, PERMISSIONS, type AgentCompiled } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { agentPlan, AGENT_LIMIT, useAgentWorld } from '../../../../test/agent-world.js';
import { createRole } from '../../../../test/authz-fixtures.js';
import { createUser } from '../../../../test/harness.js';
import { tenantHeaders } from '../../../../test/tenant-fixtures.js';

const { ctx, world, compile } = await useAgentWorld();
const plan = agentPlan;

describe('the guided builder: POST /agent/plan/compile', () => {
  it('compiles a plan over the demo source into bound SQL, a block that fits a report, and a preview', async () => {
    const response = await compile({
      source: 'demo',
      plan: {
        title: 'Rates by payer in CA',
        table: 'rates',
        measures: [
          { agg: 'count', column: null, as: 'rates' },
          { agg: 'median', column: 'negotiated_rate', as: 'median_rate' },
        ],
        dimensions: [{ column: 'payer', grain: null }],
        filters: [{ column: 'state', op: '=', value: "CA'; DROP TABLE rates; --" }],
        sort: [{ by: 'rates', direction: 'desc' }],
        limit: 5,
        chart: 'bar',
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const compiled = response.json<AgentCompiled>();
    // The value is a parameter: it never reaches the SQL text.
    expect(compiled.sql).not.toContain('DROP');
    expect(compiled.sql).toContain('"state" = :state');
    expect(compiled.block).toMatchObject({ kind: 'chart', source: 'demo', params: { state: { type: 'text' } } });
    // As the viewers draw it, so the builder works nothing out again: the spec, and never the SQL.
    expect(compiled.block.drawn).toMatchObject({ kind: 'chart', title: 'Rates by payer in CA', chart: { spec: {} } });
    expect(JSON.stringify(compiled.block.drawn)).not.toContain('SELECT');
    expect(compiled.preview.rows).toEqual([]);
    const report = parseReportDefinition(compiled.block.report);
    expect(report.ok).toBe(true);
  });

  it('draws a time series by month, and a KPI of one measure', async () => {
    const series = await compile({
      source: 'extract',
      plan: {
        title: 'Units by month',
        table: 'sales_a',
        measures: [{ agg: 'sum', column: 'units', as: 'units' }],
        dimensions: [{ column: 'sold_on', grain: 'month' }],
        filters: [{ column: 'sold_on', op: 'between', value: ['2001-01-01', '2001-12-31'] }],
        sort: [],
        limit: null,
        chart: 'line',
      },
    });
    expect(series.statusCode, series.body).toBe(200);
    const compiled = series.json<AgentCompiled>();
    expect(compiled.sql).toContain('date_trunc(\'month\', "sold_on")');
    expect(compiled.preview.rows.map((row) => row[1])).toEqual([3, 4]);
    expect(compiled.block.yaml).toContain('type: temporal');

    const kpi = await compile({
      source: 'extract',
      plan: {
        title: 'Units sold',
        table: 'sales_a',
        measures: [{ agg: 'sum', column: 'units', as: 'units' }],
        dimensions: [],
        filters: [{ column: 'region', op: 'in', value: ['north'] }],
        sort: [],
        limit: null,
        chart: 'kpi',
      },
    });
    expect(kpi.statusCode, kpi.body).toBe(200);
    expect(kpi.json<AgentCompiled>()).toMatchObject({ block: { kind: 'kpi' }, preview: { rows: [[8]] } });
  });

  it('refuses a name the source lacks, another tenant’s table, and an aggregate the type cannot take, with a 422 that says why', async () => {
    const cases = [
      { table: 'sales_a', measures: [{ agg: 'sum', column: 'invented', as: 'x' }], why: 'has no column "invented"' },
      { table: 'secret_b', measures: [{ agg: 'count', column: null, as: 'n' }], why: 'There is no table "secret_b"' },
      { table: 'sales_a', measures: [{ agg: 'avg', column: 'region', as: 'x' }], why: 'avg needs a number' },
    ];
    for (const { why, ...planned } of cases) {
      const response = await compile({
        source: 'extract',
        plan: { title: 'T', dimensions: [], filters: [], sort: [], limit: null, chart: 'table', ...planned },
      });
      expect(response.statusCode, response.body).toBe(422);
      const refusal = response.json<{ detail: { msg: string }[]; code: string }>();
      expect(refusal.code).toBe('validation_failed');
      expect(refusal.detail[0]!.msg).toContain(why);
    }
  });

  it('limits each account’s questions and compiles, with a 429 that says when to come back', async () => {
    const busy = await createUser(ctx);
    await createRole(ctx, { grants: [PERMISSIONS.agentUse], userIds: [busy.id] });
    const busyCompile = () =>
      compile(
        { source: 'demo', plan: { ...plan(), kind: undefined, source: undefined, table: 'rates' } },
        busy.headers,
      );
    for (let index = 0; index < AGENT_LIMIT; index += 1) expect((await busyCompile()).statusCode).not.toBe(429);
    const limited = await busyCompile();
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ code: string }>().code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('needs agent:use', async () => {
    const response = await compile(
      { source: 'demo', plan: plan({ kind: undefined, source: undefined }) },
      tenantHeaders(world.plainA, world.tenantA.id),
    );
    expect(response.statusCode).toBe(403);
    const status = await ctx.app.inject({
      url: '/api/v1/agent/status',
      headers: tenantHeaders(world.plainA, world.tenantA.id),
    });
    expect(status.json()).toEqual({ configured: true, model: 'scripted-model', allowed: false });
  });
});
