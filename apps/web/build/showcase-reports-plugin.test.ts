import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstScreenOf } from './showcase-reports-plugin.js';

// Tests run from apps/web.
const payer = readFileSync(path.resolve('../server/src/modules/studio/built-in-reports/payer.yaml'), 'utf8');

describe('the showcase reports’ first screens (decision 064)', () => {
  it('are a built-in report’s parameters and its blocks down to its first chart, as the viewer gets them', () => {
    const screen = firstScreenOf(payer, 'payer');
    expect(screen.params.map((param) => [param.name, param.label, param.default])).toEqual([
      ['code', 'Billing code', '99213'],
      ['state', 'State (two letters, blank for all)', ''],
    ]);
    expect(screen.blocks.map((block) => [block.id, block.kind])).toEqual([
      ['median_rate', 'kpi'],
      ['rate_count', 'kpi'],
      ['payer_count', 'kpi'],
      ['median_by_payer', 'chart'],
    ]);
    // As a viewer gets a block: no SQL.
    expect(JSON.stringify(screen.blocks)).not.toContain('SELECT');
  });

  it('refuse a text block above the first chart, whose Markdown only the server renders', () => {
    const text =
      'title: T\nsource: demo\nblocks:\n  - id: intro\n    text: Hello\n  - id: c\n    chart:\n      sql: SELECT 1 AS x\n      spec: { mark: bar }\n';
    expect(() => firstScreenOf(text, 'example')).toThrow(/text block above its first chart/);
  });

  it('refuse a definition that does not parse', () => {
    expect(() => firstScreenOf('title: [', 'broken')).toThrow(/built-in report broken is invalid/);
  });
});
