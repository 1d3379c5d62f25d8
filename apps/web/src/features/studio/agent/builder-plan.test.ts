import { describe, expect, it } from 'vitest';
import type { AgentCompiled } from '@dataplatform/contract';
import { builtBlock, chartsFor, compileRequest, defaultTitle, type BuilderPicks } from './builder-plan.js';

const types = new Map([
  ['payer', 'VARCHAR'],
  ['negotiated_rate', 'DOUBLE'],
  ['service_date', 'DATE'],
  ['npi', 'BIGINT'],
]);

const picks = (change: Partial<BuilderPicks> = {}): BuilderPicks => ({
  source: 'demo',
  table: 'rates',
  measures: [{ agg: 'count', column: '' }],
  dimensions: [],
  filters: [],
  chart: 'kpi',
  title: '',
  ...change,
});

describe('compileRequest', () => {
  it('counts every row as one figure by default', () => {
    expect(compileRequest(picks(), types)).toEqual({
      source: 'demo',
      plan: {
        title: 'Rows',
        table: 'rates',
        measures: [{ agg: 'count', column: null, as: 'rows' }],
        dimensions: [],
        filters: [],
        sort: [],
        limit: null,
        chart: 'kpi',
      },
    });
  });

  it('names each measure uniquely, keeps a grain for a date and types filter values by column', () => {
    const request = compileRequest(
      picks({
        measures: [
          { agg: 'median', column: 'negotiated_rate' },
          { agg: 'median', column: 'negotiated_rate' },
        ],
        dimensions: [{ column: 'service_date', grain: 'month' }],
        filters: [
          { column: 'npi', op: 'in', value: '1, 2' },
          { column: 'payer', op: '=', value: ' Aetna ' },
          { column: 'negotiated_rate', op: 'between', value: '10,20' },
          { column: 'payer', op: 'not_null', value: 'ignored' },
        ],
        chart: 'line',
      }),
      types,
    );
    expect(request?.plan.measures.map((measure) => measure.as)).toEqual([
      'median_negotiated_rate',
      'median_negotiated_rate_2',
    ]);
    expect(request?.plan.dimensions).toEqual([{ column: 'service_date', grain: 'month' }]);
    expect(request?.plan.filters).toEqual([
      { column: 'npi', op: 'in', value: [1, 2] },
      { column: 'payer', op: '=', value: 'Aetna' },
      { column: 'negotiated_rate', op: 'between', value: [10, 20] },
      { column: 'payer', op: 'not_null', value: null },
    ]);
    expect(request?.plan.chart).toBe('line');
    expect(request?.plan.title).toBe('Median of negotiated_rate, median of negotiated_rate by service_date (month)');
  });

  it('draws what the plan can be drawn as, and is no plan without a table or anything to show', () => {
    expect(chartsFor({ measures: [{ agg: 'count', column: '' }], dimensions: [] })).toEqual(['kpi', 'table']);
    expect(
      compileRequest(picks({ dimensions: [{ column: 'payer', grain: '' }], chart: 'kpi' }), types)?.plan.chart,
    ).toBe('bar');
    expect(compileRequest(picks({ table: '' }), types)).toBeUndefined();
    expect(compileRequest(picks({ measures: [] }), types)).toBeUndefined();
    expect(defaultTitle(picks({ measures: [], dimensions: [{ column: 'payer', grain: '' }] }))).toBe('Rates by payer');
  });
});

describe('builtBlock', () => {
  const compiled = (kind: 'kpi' | 'chart' | 'table', columns: { name: string; type: string }[]): AgentCompiled => ({
    sql: 'SELECT 1',
    block: { yaml: '', kind, source: 'demo', params: {}, report: '' },
    preview: { columns, rows: [[1, 2]], count: 1, elapsed_ms: 3 },
  });

  it('draws a chart as the server does: a category on y as horizontal bars, the measure on x', () => {
    const plan = compileRequest(
      picks({
        measures: [{ agg: 'median', column: 'negotiated_rate' }],
        dimensions: [{ column: 'payer', grain: '' }],
        chart: 'bar',
      }),
      types,
    )!.plan;
    const block = builtBlock(
      plan,
      compiled('chart', [
        { name: 'payer', type: 'VARCHAR' },
        { name: 'median_negotiated_rate', type: 'DOUBLE' },
      ]),
    );
    expect(block.chart?.spec).toEqual({
      mark: { type: 'bar', tooltip: true },
      encoding: {
        y: { field: 'payer', type: 'nominal', sort: '-x', title: 'payer' },
        x: { field: 'median_negotiated_rate', type: 'quantitative', title: 'median_negotiated_rate' },
      },
    });
  });

  it('draws a KPI of the first measure, an integer for an integer column', () => {
    const plan = compileRequest(picks(), types)!.plan;
    expect(builtBlock(plan, compiled('kpi', [{ name: 'rows', type: 'BIGINT' }])).kpi).toEqual({
      sql: 'SELECT 1',
      value: 'rows',
      format: 'integer',
      label: 'Rows',
    });
  });
});
