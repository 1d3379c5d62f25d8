import { SCHEDULE_CSV_BYTES_MAX, SCHEDULE_CSV_ROWS_MAX, type ReportPublic } from '@dataplatform/contract';
import type { MailAttachment } from '../../mail/mail.service.js';
import { PRODUCT_NAME } from '../../mail/mail.service.js';
import { csvFileName, line } from '../csv-export.js';
import type { RowStream } from '../engine/engine.js';

/*
 * What a scheduled delivery mails: the KPIs as text, each chart as an inline PNG (an attachment the
 * HTML names by its Content-ID), each table as a CSV attachment cut at SCHEDULE_CSV_ROWS_MAX rows or
 * about SCHEDULE_CSV_BYTES_MAX bytes. Text blocks are left out: they are the report's prose, read on
 * its page, which the mail links to.
 */

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const KPI_FORMATS = {
  number: new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }),
  integer: new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }),
  currency: new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }),
  percent: new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }),
} as const;

/** A KPI's figure as the viewer shows it. */
export function formatKpi(value: unknown, format: keyof typeof KPI_FORMATS | undefined): string {
  if (value === null || value === undefined) return '—';
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) return typeof value === 'string' ? value : JSON.stringify(value);
  return KPI_FORMATS[format ?? 'number'].format(number);
}

export type DeliveredBlock =
  | { kind: 'kpi'; title: string; value: string }
  | { kind: 'chart'; title: string; png: Buffer; blockId: string }
  | { kind: 'table'; title: string; blockId: string; csv: string; rows: number; total: number };

/** The stream's rows as CSV text, at most SCHEDULE_CSV_ROWS_MAX rows and SCHEDULE_CSV_BYTES_MAX bytes. */
export async function cappedCsv(stream: RowStream): Promise<{ csv: string; rows: number; total: number }> {
  const lines = [line(stream.columns.map((column) => column.name))];
  let bytes = Buffer.byteLength(lines[0]!);
  let rows = 0;
  try {
    outer: for await (const chunk of stream.chunks) {
      for (const row of chunk) {
        const text = line(row);
        const size = Buffer.byteLength(text);
        if (rows >= SCHEDULE_CSV_ROWS_MAX || bytes + size > SCHEDULE_CSV_BYTES_MAX) break outer;
        lines.push(text);
        bytes += size;
        rows += 1;
      }
    }
  } finally {
    stream.close();
  }
  return { csv: lines.join(''), rows, total: stream.count };
}

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
}

export function composeReportMail(options: {
  report: ReportPublic;
  blocks: DeliveredBlock[];
  link: string;
  /** Set for an alert: what held. */
  alert?: { block: string; condition: string; value: string };
  when: string;
}): ComposedMail {
  const { report, blocks, link, alert } = options;
  const title = report.title;
  const subject = alert ? `Alert: ${title} — ${alert.block} ${alert.condition}` : `${title} — scheduled report`;
  const text: string[] = [title, options.when, ''];
  const html: string[] = [`<h1 style="font-size:20px">${escapeHtml(title)}</h1>`, `<p>${escapeHtml(options.when)}</p>`];
  if (alert) {
    const line = `The alert on ${alert.block} (${alert.condition}) holds: the figure is ${alert.value}.`;
    text.push(line, '');
    html.push(`<p><strong>${escapeHtml(line)}</strong></p>`);
  }
  const attachments: MailAttachment[] = [];
  for (const block of blocks) {
    if (block.kind === 'kpi') {
      text.push(`${block.title}: ${block.value}`);
      html.push(`<p>${escapeHtml(block.title)}: <strong>${escapeHtml(block.value)}</strong></p>`);
    } else if (block.kind === 'chart') {
      const cid = `chart-${block.blockId}@report`;
      attachments.push({
        filename: `${report.slug}-${block.blockId}.png`.replace(/[^A-Za-z0-9._-]/g, '_'),
        contentType: 'image/png',
        content: block.png.toString('base64'),
        cid,
      });
      text.push(`${block.title}: chart attached as an image`);
      html.push(
        `<h2 style="font-size:16px">${escapeHtml(block.title)}</h2><img src="cid:${escapeHtml(cid)}" alt="${escapeHtml(block.title)}" style="max-width:100%">`,
      );
    } else {
      const filename = csvFileName(report.slug, block.blockId);
      attachments.push({ filename, contentType: 'text/csv', content: Buffer.from(block.csv).toString('base64') });
      const cut =
        block.rows < block.total ? ` (the first ${block.rows} of ${block.total} rows)` : ` (${block.rows} rows)`;
      text.push(`${block.title}: attached as ${filename}${cut}`);
      html.push(`<p>${escapeHtml(block.title)}: attached as ${escapeHtml(filename)}${escapeHtml(cut)}</p>`);
    }
  }
  text.push('', `Open the report: ${link}`, '', `— ${PRODUCT_NAME}`);
  html.push(`<p><a href="${escapeHtml(link)}">Open the report</a></p>`);
  const body = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:sans-serif;color:#222">${html.join('')}<p style="font-size:12px;color:#777">${escapeHtml(PRODUCT_NAME)}</p></body></html>`;
  return { subject, text: text.join('\n'), html: body, attachments };
}

/** A plain note to a schedule's author (a failed run, a schedule stopped or narrowed). */
export function authorNotice(subject: string, lines: string[], link: string) {
  const text = [...lines, '', `Manage the schedule: ${link}`, '', `— ${PRODUCT_NAME}`].join('\n');
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:sans-serif;color:#222">${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<p><a href="${escapeHtml(link)}">Manage the schedule</a></p></body></html>`;
  return { subject, text, html };
}
