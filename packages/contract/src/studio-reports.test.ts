import { describe, expect, it } from 'vitest';
import {
  cacheSeconds,
  coerceParamValue,
  isReportSlug,
  parseReportDefinition,
  publicReportBlock,
  publicReportParams,
  REPORT_DEFINITION_MAX,
  ReportCreateSchema,
  slugFromTitle,
  type ReportDefinitionProblem,
} from './studio-reports.js';

const valid = `title: Negotiated rates by payer
description: Median in-network rate per payer for one billing code.
source: demo
cache: 10m
params:
  code: { label: Billing code, type: select, options: "SELECT DISTINCT billing_code FROM rates ORDER BY 1", default: "99213" }
  since: { type: date, default: 2026-01-01 }
blocks:
  - id: median
    kpi: { sql: "SELECT median(negotiated_rate) AS v FROM rates WHERE billing_code = :code", value: v, format: currency }
  - id: by_payer
    chart:
      sql: "SELECT payer, median(negotiated_rate) AS median_rate FROM rates WHERE billing_code = :code GROUP BY payer"
      spec: { mark: bar, encoding: { x: { field: payer, type: nominal, sort: -y }, y: { field: median_rate, type: quantitative } } }
  - id: detail
    table: { sql: "SELECT payer, npi, negotiated_rate FROM rates WHERE billing_code = :code", page_size: 50 }
  - id: note
    text: "Rates are **negotiated** prices."
`;

function problemsOf(text: string): ReportDefinitionProblem[] {
  const result = parseReportDefinition(text);
  if (result.ok) throw new Error('expected problems');
  return result.problems;
}

describe('report definitions (STUDIO-REPORT-1)', () => {
  it('parses the design document’s example', () => {
    const result = parseReportDefinition(valid);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.definition.title).toBe('Negotiated rates by payer');
    expect(result.definition.blocks.map((block) => block.id)).toEqual(['median', 'by_payer', 'detail', 'note']);
    expect(result.definition.params?.since?.default).toBe('2026-01-01');
  });

  it('reports a YAML syntax error with its line and column', () => {
    const problems = problemsOf('title: x\nsource: demo\nblocks:\n  - id: a\n    text: "unterminated\n');
    expect(problems[0]!.loc).toEqual([]);
    expect(problems[0]!.type).toMatch(/^yaml\./);
    expect(problems[0]!.line).toBeGreaterThanOrEqual(5);
    expect(problems[0]!.msg).toMatch(/^YAML syntax error: /);
  });

  it('reports a duplicate key as a YAML problem at its line', () => {
    const problems = problemsOf('title: x\ntitle: y\nsource: demo\nblocks: [{ id: a, text: hi }]\n');
    expect(problems[0]).toMatchObject({ line: 2, column: 1 });
  });

  it('points each schema problem at its node: a wrong value, an unknown key, a missing field', () => {
    const text = [
      'title: Rates', //                                      1
      'source: warehouse', //                                 2
      'blocks:', //                                           3
      '  - id: a', //                                         4
      '    kpi: { sql: "SELECT 1 AS v", value: v, colour: red }', // 5
      '  - id: b', //                                         6
      '    chart:', //                                        7
      '      sql: SELECT 1', //                               8
      '      spec: { mark: bar, data: { url: "https://example.com/x.csv" } }', // 9
      '  - id: a', //                                         10
      '    table: { sql: SELECT 1, page_size: 5000 }', //      11
    ].join('\n');
    const problems = problemsOf(text);
    const lines = text.split('\n');
    /** Where `token` first appears on 1-based line `line`. */
    const spot = (line: number, token: string) => ({ line, column: lines[line - 1]!.indexOf(token) + 1 });
    const at = (loc: (string | number)[]) =>
      problems.find((problem) => JSON.stringify(problem.loc) === JSON.stringify(loc));
    expect(at(['source'])).toMatchObject(spot(2, 'warehouse'));
    expect(at(['blocks', 0, 'kpi', 'colour'])).toMatchObject({ ...spot(5, 'colour'), type: 'unrecognized_keys' });
    expect(at(['blocks', 1, 'chart', 'spec', 'data'])).toMatchObject(spot(9, '{ url'));
    expect(at(['blocks', 2, 'id'])).toMatchObject(spot(10, 'a'));
    expect(at(['blocks', 2, 'table', 'page_size'])).toMatchObject(spot(11, '5000'));
  });

  it('names the missing field at the mapping that lacks it', () => {
    const problems = problemsOf('source: demo\nblocks:\n  - id: a\n    text: hi\n');
    expect(problems).toEqual([expect.objectContaining({ loc: ['title'], line: 1, column: 1 })]);
  });

  it('wants exactly one kind per block, and a chart that draws something', () => {
    const problems = problemsOf(
      'title: t\nsource: demo\nblocks:\n  - id: a\n    text: hi\n    table: { sql: SELECT 1 }\n  - id: b\n    chart: { sql: SELECT 1, spec: { encoding: {} } }\n',
    );
    expect(problems.map((problem) => problem.msg)).toEqual([
      'A block has exactly one of kpi, chart, table or text',
      'A chart spec needs a mark (or a layer, concat, facet or repeat)',
    ]);
    expect(problems[0]).toMatchObject({ line: 4, column: 5 });
  });

  it('refuses data nested anywhere in a chart, and a spec nested too deep', () => {
    const layered = problemsOf(
      'title: t\nsource: demo\nblocks:\n  - id: a\n    chart: { sql: SELECT 1, spec: { layer: [ { mark: line, data: { url: x } } ] } }\n',
    );
    expect(layered[0]).toMatchObject({ loc: ['blocks', 0, 'chart', 'spec', 'layer', 0, 'data'] });
    const deep = `title: t\nsource: demo\nblocks:\n  - id: a\n    chart: { sql: SELECT 1, spec: { mark: bar, x: ${'['.repeat(40)}${']'.repeat(40)} } }\n`;
    expect(problemsOf(deep).map((problem) => problem.msg)).toContain('A chart spec may nest at most 32 levels');
  });

  it('checks parameters: select needs options, defaults fit their type, options only on select', () => {
    const problems = problemsOf(
      [
        'title: t',
        'source: demo',
        'params:',
        '  a: { type: select }',
        '  b: { type: number, default: many }',
        '  c: { type: text, options: [x] }',
        '  d: { type: date, default: 2026-02-30 }',
        'blocks: [{ id: x, text: hi }]',
      ].join('\n'),
    );
    expect(problems.map((problem) => [problem.loc.join('.'), problem.line])).toEqual([
      ['params.a.options', 4],
      ['params.b.default', 5],
      ['params.c.options', 6],
      ['params.d.default', 7],
    ]);
  });

  it('refuses a definition that is not a mapping, and one over the size limit before reading it', () => {
    expect(problemsOf('- just\n- a list\n')[0]).toMatchObject({ type: 'type', line: 1, column: 1 });
    // An unclosed list: had the 10 MB been parsed, its syntax error would be among the problems.
    const huge = `title: [${'x'.repeat(10 * 1024 * 1024)}`;
    expect(problemsOf(huge).map((problem) => problem.msg)).toEqual([
      `Definition must be at most ${REPORT_DEFINITION_MAX} characters`,
    ]);
  });

  it('refuses alias bombs', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]']
      .concat(
        Array.from({ length: 8 }, (_, index) => {
          const name = String.fromCharCode(98 + index);
          const previous = String.fromCharCode(97 + index);
          return `${name}: &${name} [${Array(10).fill(`*${previous}`).join(', ')}]`;
        }),
      )
      .join('\n');
    expect(problemsOf(bomb)[0]!.msg).toMatch(/^YAML syntax error: /);
  });
});

describe('report helpers', () => {
  it('reads cache durations', () => {
    expect([cacheSeconds('30s'), cacheSeconds('10m'), cacheSeconds('1h'), cacheSeconds(undefined)]).toEqual([
      30, 600, 3600, 0,
    ]);
    expect(problemsOf('title: t\nsource: demo\ncache: 2d\nblocks: [{ id: x, text: hi }]\n')[0]).toMatchObject({
      loc: ['cache'],
      line: 3,
    });
  });

  it('coerces run values to the parameter type, binding text that looks like SQL as text', () => {
    expect(coerceParamValue({ type: 'number' }, '12.5')).toEqual({ value: 12.5 });
    expect(coerceParamValue({ type: 'number' }, '1; DROP TABLE rates')).toEqual({ error: 'Must be a number' });
    expect(coerceParamValue({ type: 'boolean' }, 'true')).toEqual({ value: true });
    expect(coerceParamValue({ type: 'date' }, '2026-13-01')).toEqual({ error: 'Must be a date written YYYY-MM-DD' });
    expect(coerceParamValue({ type: 'text' }, "x' OR 1=1 --")).toEqual({ value: "x' OR 1=1 --" });
    expect(coerceParamValue({ type: 'select', options: ['99213', 70450] }, 70450)).toEqual({ value: 70450 });
    expect(coerceParamValue({ type: 'select', options: ['99213', 70450] }, '70450')).toEqual({ value: 70450 });
    expect(coerceParamValue({ type: 'select', options: ['99213'] }, 'other')).toEqual({
      error: 'Must be one of the parameter’s options',
    });
  });

  it('slugs never look like ids, and built-in slugs are reserved', () => {
    expect(isReportSlug('payer-rates-2026')).toBe(true);
    expect(isReportSlug('0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(false);
    expect(isReportSlug('Has Caps')).toBe(false);
    expect(slugFromTitle('Négociated rates: by payer!')).toBe('negociated-rates-by-payer');
    expect(slugFromTitle('!!!')).toBe('report');
    expect(ReportCreateSchema.safeParse({ definition: 'x', slug: 'payer' }).success).toBe(false);
  });

  it('gives a definition’s parameters and blocks as a report carries them', () => {
    const result = parseReportDefinition(valid);
    if (!result.ok) throw new Error('expected the example to parse');
    expect(publicReportParams(result.definition)).toEqual([
      {
        name: 'code',
        label: 'Billing code',
        type: 'select',
        default: '99213',
        options: null,
        options_sql: 'SELECT DISTINCT billing_code FROM rates ORDER BY 1',
      },
      { name: 'since', label: 'since', type: 'date', default: '2026-01-01', options: null, options_sql: null },
    ]);
    const blocks = result.definition.blocks.map((block) =>
      publicReportBlock(block, (markdown) => `<p>${markdown}</p>`),
    );
    expect(blocks.map((block) => block.kind)).toEqual(['kpi', 'chart', 'table', 'text']);
    expect(blocks[2]!.table).toEqual({
      sql: 'SELECT payer, npi, negotiated_rate FROM rates WHERE billing_code = :code',
      page_size: 50,
    });
    expect(blocks[3]).toEqual({
      id: 'note',
      kind: 'text',
      title: null,
      text: 'Rates are **negotiated** prices.',
      html: '<p>Rates are **negotiated** prices.</p>',
    });
  });
});
