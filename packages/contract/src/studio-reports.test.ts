import { describe, expect, it } from 'vitest';
import {
  cacheSeconds,
  parseReportDefinition,
  placeholderNames,
  REPORT_DEFINITION_MAX_CHARS,
} from './studio-reports.js';

const valid = `title: Negotiated rates by payer
description: Median in-network rate per payer for one billing code.
source: demo
cache: 10m
params:
  code: { label: Billing code, type: select, options: "SELECT DISTINCT billing_code FROM rates ORDER BY 1", default: "99213" }
blocks:
  - id: median
    kpi: { sql: "SELECT median(negotiated_rate) AS v FROM rates WHERE billing_code = :code", value: v, format: currency }
  - id: by_payer
    chart:
      sql: "SELECT payer, median(negotiated_rate) AS median_rate FROM rates WHERE billing_code = :code GROUP BY payer"
      spec: { mark: bar, encoding: { x: { field: payer, type: nominal }, y: { field: median_rate, type: quantitative } } }
  - id: detail
    table: { sql: "SELECT payer, plan_name, npi, negotiated_rate FROM rates WHERE billing_code = :code", page_size: 50 }
  - id: note
    text: "Rates are **negotiated** prices."
`;

function problemsOf(text: string) {
  const parsed = parseReportDefinition(text);
  if (parsed.ok) throw new Error('expected problems');
  return parsed.problems;
}

describe('report definitions (STUDIO-YAML-1)', () => {
  it('reads the example of the design', () => {
    const parsed = parseReportDefinition(valid);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.definition.blocks.map((block) => block.id)).toEqual(['median', 'by_payer', 'detail', 'note']);
    expect(parsed.definition.params?.code?.default).toBe('99213');
    expect(cacheSeconds(parsed.definition.cache)).toBe(600);
  });

  it('points a YAML syntax error at its line and column', () => {
    const problems = problemsOf('title: Broken\nsource: demo\nblocks:\n  - id: a\n    text: "never closed\n');
    expect(problems[0]!.line).toBeGreaterThanOrEqual(5);
    expect(problems[0]!.message.length).toBeGreaterThan(0);
  });

  it('points a schema problem at the line of the field', () => {
    const text = valid.replace('format: currency', 'format: euros');
    const problems = problemsOf(text);
    expect(problems).toEqual([expect.objectContaining({ line: 9, path: 'blocks.0.kpi.format' })]);
    expect(problems[0]!.column).toBeGreaterThan(1);
  });

  it('refuses a chart that brings its own data, a block of two kinds, duplicate ids and unknown parameters', () => {
    const text = `title: T
source: demo
blocks:
  - id: a
    chart: { sql: "SELECT 1 AS x", spec: { mark: bar, data: { values: [1] } } }
  - id: a
    text: one
    kpi: { sql: "SELECT 1 AS v", value: v }
  - id: b
    table: { sql: "SELECT * FROM rates WHERE billing_code = :code AND note = ':not_a_param' AND x::INT > 0" }
`;
    const problems = problemsOf(text);
    expect(problems.map((problem) => [problem.line, problem.path])).toEqual([
      [5, 'blocks.0.chart.spec'],
      [6, 'blocks.1'],
      [6, 'blocks.1.id'],
      [10, 'blocks.2.table.sql'],
    ]);
    expect(problems[3]!.message).toBe(':code is not one of the report’s params'.replace('’', "'"));
  });

  it('refuses unknown keys, a missing title and a wrong source, each at its place', () => {
    const problems = problemsOf('source: warehouse\ncolour: red\nblocks:\n  - id: a\n    text: hi\n');
    const byPath = Object.fromEntries(problems.map((problem) => [problem.path, problem.line]));
    expect(byPath.title).toBe(1);
    expect(byPath.source).toBe(1);
    expect(problems.some((problem) => problem.line === 2 && /colour/.test(problem.message))).toBe(true);
  });

  it('refuses an alias bomb and a text over the limit without expanding them', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    ].join('\n');
    expect(problemsOf(bomb)[0]!.message).toMatch(/alias/i);
    const huge = `title: T\nsource: demo\nblocks:\n  - id: a\n    text: "${'x'.repeat(REPORT_DEFINITION_MAX_CHARS)}"\n`;
    expect(problemsOf(huge)).toEqual([expect.objectContaining({ line: 1, column: 1 })]);
  });

  it('finds :name placeholders outside quotes and comments, never in casts', () => {
    expect(
      placeholderNames("SELECT x::INT, ':quoted' -- :comment\n FROM t WHERE a = :one /* :two */ AND b = :three_3"),
    ).toEqual(['one', 'three_3']);
  });
});
