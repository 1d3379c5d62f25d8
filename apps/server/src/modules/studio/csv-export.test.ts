import { describe, expect, it } from 'vitest';
import { csvFileName, csvReadable } from './csv-export.js';
import type { RowStream } from './engine/engine.js';

async function textOf(rows: unknown[][][], columns = ['a', 'b']) {
  let closed = 0;
  async function* chunks() {
    for (const chunk of rows) yield chunk;
  }
  const stream: RowStream = {
    columns: columns.map((name) => ({ name, type: 'VARCHAR' })),
    count: rows.flat().length,
    chunks: chunks(),
    close: () => {
      closed += 1;
    },
  };
  let text = '';
  for await (const piece of csvReadable(stream)) text += String(piece);
  return { text, closed };
}

describe('a table as CSV (STUDIO-VIEW-4)', () => {
  it('quotes what needs quoting, writes nulls empty and objects as JSON, one CRLF line per row', async () => {
    const { text, closed } = await textOf([
      [
        ['plain', 1.5],
        ['with, comma', null],
      ],
      [['with "quotes"\nand a line', { k: [1] }]],
    ]);
    expect(text).toBe('a,b\r\nplain,1.5\r\n"with, comma",\r\n"with ""quotes""\nand a line","{""k"":[1]}"\r\n');
    expect(closed).toBeGreaterThan(0);
  });

  it('prefixes text that a spreadsheet would run as a formula, never a number', async () => {
    const { text } = await textOf([
      [
        ['=HYPERLINK("x")', -5],
        ['+1', '@SUM(A1)'],
        ['-2', '\tx'],
      ],
    ]);
    expect(text.split('\r\n').slice(1, 4)).toEqual([`"'=HYPERLINK(""x"")",-5`, "'+1,'@SUM(A1)", "'-2,'\tx"]);
  });

  it('names the file by the report and block, with nothing a header could be broken by', () => {
    expect(csvFileName('payer', 'outliers')).toBe('payer-outliers.csv');
    expect(csvFileName('a"b', 'c\r\nd')).toBe('a_b-c__d.csv');
  });
});
