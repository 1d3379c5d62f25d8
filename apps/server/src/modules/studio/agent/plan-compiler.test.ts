import { columnClass, type AgentPlanBody } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { answerJsonSchema } from './grounding.js';
import { compilePlan, PlanProblem } from './plan-compiler.js';

const TABLES = [
  {
    name: 'sales.orders',
    columns: [
      { name: 'region', type: 'text' },
      { name: 'amount', type: 'numeric(12,2)' },
      { name: 'ordered_at', type: 'timestamp with time zone' },
      { name: 'paid', type: 'boolean' },
    ],
  },
];

const plan = (overrides: Partial<AgentPlanBody>): AgentPlanBody => ({
  title: 'T',
  table: 'sales.orders',
  measures: [],
  dimensions: [],
  filters: [],
  sort: [],
  limit: null,
  chart: 'table',
  ...overrides,
});

describe('compilePlan', () => {
  it('writes PostgreSQL for the tenant source: a schema-qualified table, median as percentile_cont, values bound', () => {
    const compiled = compilePlan(
      'tenant',
      TABLES,
      plan({
        measures: [{ agg: 'median', column: 'amount', as: 'median_amount' }],
        dimensions: [{ column: 'ordered_at', grain: 'quarter' }],
        filters: [
          { column: 'region', op: 'in', value: ['north', "o'hara"] },
          { column: 'paid', op: '=', value: 'true' },
          { column: 'ordered_at', op: 'between', value: ['2001-01-01', '2001-12-31'] },
          { column: 'amount', op: 'is_null', value: null },
        ],
        chart: 'line',
        limit: 100,
      }),
    );
    expect(compiled.sql).toBe(
      [
        `SELECT date_trunc('quarter', "ordered_at") AS "ordered_at", percentile_cont(0.5) WITHIN GROUP (ORDER BY "amount") AS "median_amount"`,
        'FROM "sales"."orders"',
        `WHERE "region" IN (:region, :region_2) AND "paid" = :paid AND "ordered_at" BETWEEN CAST(:ordered_at AS DATE) AND CAST(:ordered_at_2 AS DATE) AND "amount" IS NULL`,
        'GROUP BY 1',
        'ORDER BY "ordered_at"',
        'LIMIT 100',
      ].join('\n'),
    );
    expect(compiled.values).toEqual({
      region: 'north',
      region_2: "o'hara",
      paid: true,
      ordered_at: '2001-01-01',
      ordered_at_2: '2001-12-31',
    });
    expect(compiled).toMatchObject({ blockKind: 'chart', encoding: { x: 'ordered_at', y: 'median_amount' } });
  });

  it('says what is wrong in words a model can act on', () => {
    const problems: [Partial<AgentPlanBody>, string][] = [
      [{ table: 'orders' }, 'There is no table "orders"'],
      [{ measures: [{ agg: 'sum', column: 'region', as: 's' }] }, 'sum needs a number'],
      [
        { dimensions: [{ column: 'region', grain: 'month' }], measures: [{ agg: 'count', column: null, as: 'n' }] },
        'has no month grain',
      ],
      [
        {
          measures: [{ agg: 'count', column: null, as: 'n' }],
          dimensions: [{ column: 'region', grain: null }],
          chart: 'kpi',
        },
        'A KPI is one number',
      ],
      [{ measures: [{ agg: 'count', column: null, as: 'n' }], chart: 'bar' }, 'needs a dimension and a measure'],
      [
        {
          measures: [{ agg: 'count', column: null, as: 'n' }],
          filters: [{ column: 'amount', op: '>', value: 'lots' }],
        },
        'is not one',
      ],
      [
        { measures: [{ agg: 'count', column: null, as: 'n' }], sort: [{ by: 'region', direction: 'asc' }] },
        'names no result',
      ],
      [{}, 'at least one measure or one dimension'],
    ];
    for (const [overrides, message] of problems) {
      expect(() => compilePlan('tenant', TABLES, plan(overrides)), message).toThrow(PlanProblem);
      expect(() => compilePlan('tenant', TABLES, plan(overrides))).toThrow(message);
    }
  });

  it('reads the types both engines report', () => {
    expect(['BIGINT', 'DOUBLE', 'DECIMAL(18,3)', 'integer', 'double precision'].map(columnClass)).toEqual(
      Array(5).fill('number'),
    );
    expect(['DATE', 'TIMESTAMP WITH TIME ZONE', 'timestamp without time zone'].map(columnClass)).toEqual(
      Array(3).fill('time'),
    );
    expect(['VARCHAR', 'text', 'character varying(20)', 'UUID'].map(columnClass)).toEqual(Array(4).fill('text'));
  });
});

describe('answerJsonSchema', () => {
  it('is one object (as OpenAI’s strict mode wants) whose names are enums of the sources given, and of no other', () => {
    const schema = answerJsonSchema([{ id: 'tenant', tables: TABLES }]);
    expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
    const text = JSON.stringify(schema);
    expect(text).toContain('"enum":["sales.orders"]');
    expect(text).toContain('"enum":["region","amount","ordered_at","paid"]');
    expect(text).not.toContain('rates');
    const properties = (schema as { properties: Record<string, unknown>; required: string[] }).properties;
    expect((schema as { required: string[] }).required).toEqual(Object.keys(properties));
  });
});
