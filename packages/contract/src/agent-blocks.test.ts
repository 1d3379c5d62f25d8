import { describe, expect, it } from 'vitest';
import { addBlockToReport, blockIdFrom } from './agent-blocks.js';
import { parseReportDefinition } from './studio-reports.js';

const REPORT = `# Rates, kept by hand
title: Rates
source: demo
params:
  state:
    type: text
    default: CA
blocks:
  - id: rates_by_payer
    table:
      sql: SELECT payer FROM rates WHERE state = :state
`;

describe('addBlockToReport', () => {
  it('appends the block, renaming a parameter and an id the report already has, and keeps the text’s comments', () => {
    const text = addBlockToReport(REPORT, {
      block: {
        id: 'rates_by_payer',
        title: 'Rates in NY',
        kpi: { sql: 'SELECT count(*) AS n FROM rates WHERE state = :state AND x::text = :state', value: 'n' },
      },
      params: { state: { type: 'text', default: 'NY' } },
    });
    expect(text.startsWith('# Rates, kept by hand')).toBe(true);
    const parsed = parseReportDefinition(text);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    expect(parsed.definition.params).toEqual({
      state: { type: 'text', default: 'CA' },
      state_2: { type: 'text', default: 'NY' },
    });
    expect(parsed.definition.blocks.map((block) => block.id)).toEqual(['rates_by_payer', 'rates_by_payer_2']);
    expect(parsed.definition.blocks[1]!.kpi!.sql).toBe(
      'SELECT count(*) AS n FROM rates WHERE state = :state_2 AND x::text = :state_2',
    );
  });

  it('refuses a text that is not a report', () => {
    expect(() => addBlockToReport('- a list', { block: { id: 'b', text: 'x' }, params: {} })).toThrow();
  });
});

describe('blockIdFrom', () => {
  it('makes an identifier of any title', () => {
    expect(blockIdFrom('Median rate by payer (2001)')).toBe('median_rate_by_payer_2001');
    expect(blockIdFrom('2001 rates')).toBe('block_2001_rates');
  });
});
