import { describe, expect, it } from 'vitest';
import type { AgentCompiled } from '@dataplatform/contract';
import { chartsFor, compileRequest, defaultTitle, previewBlock, type BuilderPicks } from './builder-plan.js';

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

describe('previewBlock', () => {
  const compiled = (drawn: AgentCompiled['block']['drawn'], rows: number): AgentCompiled => ({
    sql: 'SELECT 1',
    block: { yaml: '', kind: drawn.kind as 'kpi' | 'chart' | 'table', source: 'demo', params: {}, report: '', drawn },
    preview: {
      columns: [{ name: 'n', type: 'BIGINT' }],
      rows: Array.from({ length: rows }, (_, n) => [n]),
      count: rows,
      elapsed_ms: 3,
    },
  });

  it('draws what the server drew of the block: its chart spec as it is', () => {
    const spec = { mark: { type: 'bar', tooltip: true }, encoding: { x: { field: 'n', type: 'quantitative' } } };
    expect(previewBlock(compiled({ id: 'rates', kind: 'chart', title: 'Rates', chart: { spec } }, 3))).toEqual({
      id: 'preview',
      kind: 'chart',
      title: 'Rates',
      chart: { spec },
    });
  });

  it('shows every preview row of a table on one page', () => {
    const block = previewBlock(compiled({ id: 'rates', kind: 'table', title: 'Rates', table: { page_size: 50 } }, 7));
    expect(block.table).toEqual({ page_size: 7 });
    expect(
      previewBlock(compiled({ id: 'none', kind: 'table', title: null, table: { page_size: 50 } }, 0)).table,
    ).toEqual({
      page_size: 1,
    });
  });
});
