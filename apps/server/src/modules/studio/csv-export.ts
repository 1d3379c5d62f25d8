import { Readable } from 'node:stream';
import type { RowStream } from './engine/engine.js';

/*
 * The HTTP side of a table's download: the engine's chunks as CSV (RFC 4180, CRLF lines, a header
 * of the column names), read only as fast as the client takes them. Ours, not a CSV library's:
 * none we know of applies the formula guard below to streamed chunks.
 */

/**
 * A spreadsheet runs a cell that starts like a formula; a text value that does is written with a
 * leading apostrophe so opening the file never runs what a source's data says (CSV injection).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'string') text = FORMULA_START.test(value) ? `'${value}` : value;
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
  else text = JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line (CRLF-terminated) of `values`; a scheduled mail's capped attachment writes its lines with it. */
export function line(values: readonly unknown[]): string {
  return `${values.map(cell).join(',')}\r\n`;
}

/** The CSV text of `stream`, one piece per chunk; closing the readable early closes the stream. */
export function csvReadable(stream: RowStream): Readable {
  async function* pieces() {
    try {
      yield line(stream.columns.map((column) => column.name));
      for await (const rows of stream.chunks) yield rows.map(line).join('');
    } finally {
      stream.close();
    }
  }
  const readable = Readable.from(pieces(), { objectMode: false });
  // Destroyed before the first read (the client left at once): the generator never started.
  readable.once('close', () => stream.close());
  return readable;
}

/** A file name for the download: the report's slug and the block's id, both already name-safe. */
export function csvFileName(slug: string, block: string): string {
  return `${slug}-${block}.csv`.replace(/[^A-Za-z0-9._-]/g, '_');
}
