import type { ReportBlockPublic, ReportParamPublic, ReportRun } from '@dataplatform/contract';
import { myTenantsQueryOptions } from '../../lib/my-tenants.js';
import { getQueryClient } from '../../lib/query-client.js';
import { startChartWorker } from './chart/chart-picture.js';
import { reportQueryOptions, reportsQueryOptions, runBlockQueryOptions } from './api/reports.js';

// What a report's view asks the server for, read from its URL. The viewer renders from it and the
// routes' clientLoaders start the same requests while the viewer's code is still downloading, so the
// two must build them the same way: the query cache answers the viewer only if the keys are equal.
// No React and no MUI here: this module is in the loaders' chunk.

/** A parameter's value as the URL and the inputs hold it: text, or absent for the default. */
export type ParamValues = Record<string, string>;

export const PAGE_PREFIX = 'page.';
export const SORT_PREFIX = 'sort.';

/** The report list's first page, as the list asks for it. */
export const REPORTS_PAGE_SIZE = 20;

export interface ColumnSort {
  column: string;
  direction: 'asc' | 'desc';
}

/** The default of a parameter as text, as an input shows it. */
export function defaultText(param: ReportParamPublic): string {
  return param.default === null ? '' : String(param.default);
}

/** Every parameter's value: the URL's, else its default. */
export function paramValues(params: readonly ReportParamPublic[], search: URLSearchParams): ParamValues {
  const values: ParamValues = {};
  for (const param of params) values[param.name] = search.get(param.name) ?? defaultText(param);
  return values;
}

/** "column:desc" in the URL, as the engine's sort. */
export function parseSort(text: string | null): ColumnSort | undefined {
  if (!text) return undefined;
  const at = text.lastIndexOf(':');
  const column = at > 0 ? text.slice(0, at) : text;
  const direction = at > 0 && text.slice(at + 1) === 'desc' ? 'desc' : 'asc';
  return { column, direction };
}

/** A table block's page in the URL (1-based there), from 0. */
export function blockPage(block: ReportBlockPublic, search: URLSearchParams): number {
  return Math.max(0, Number.parseInt(search.get(PAGE_PREFIX + block.id) ?? '1', 10) - 1 || 0);
}

/** The run request of one block: its parameters, and for a table its page and sort. */
export function blockRunRequest(block: ReportBlockPublic, params: ParamValues, search: URLSearchParams): ReportRun {
  const sort = parseSort(search.get(SORT_PREFIX + block.id));
  const pageSize = block.table?.page_size ?? 0;
  return {
    block: block.id,
    params,
    skip: block.table ? blockPage(block, search) * pageSize : 0,
    ...(block.table ? { limit: pageSize } : {}),
    ...(sort ? { sort: [sort] } : {}),
  };
}

/**
 * Starts what a report's view will ask for: its definition, then each block's rows and, with a
 * chart, the chart library. Nothing is awaited: the route renders as soon as its code is in, and the
 * viewer's queries pick up the answers in flight. Failures are the viewer's to show.
 */
export function prefetchReportView(reportKey: string, search: URLSearchParams): void {
  const client = getQueryClient();
  client
    .ensureQueryData(reportQueryOptions(reportKey))
    .then((report) => {
      const params = paramValues(report.params, search);
      for (const block of report.blocks) {
        if (block.kind === 'text') continue;
        // Vega, Vega-Lite and the interpreter load in the worker that draws the charts (decision 055).
        if (block.kind === 'chart') startChartWorker();
        void client.prefetchQuery(
          runBlockQueryOptions(report.id, report.version, blockRunRequest(block, params, search)),
        );
      }
    })
    .catch(() => undefined);
}

/** The built-in report a showcase path (/payer, /hospital-prices, /cms-fs) shows. */
export function showcaseSlug(pathname: string): string {
  return pathname.replace(/^\/+|\/+$/g, '');
}

/**
 * What the Studio area's page at `pathname` will ask for first: the report list's first page (and
 * the caller's tenants), or a report's view. The editor and the sources fetch their own.
 */
export function prefetchStudioPage(pathname: string, search: URLSearchParams): void {
  const [, area, section, key, rest] = pathname.split('/');
  if (area !== 'studio' || section !== 'reports' || rest !== undefined) return;
  if (key === undefined || key === '') {
    const client = getQueryClient();
    void client.prefetchQuery(reportsQueryOptions({ skip: 0, limit: REPORTS_PAGE_SIZE }));
    // The list waits for the caller's tenants to say whose reports it shows.
    void client.prefetchQuery(myTenantsQueryOptions());
  } else if (key !== 'new') {
    let reportKey: string;
    try {
      reportKey = decodeURIComponent(key);
    } catch {
      return; // A malformed address: the viewer says there is no report there.
    }
    prefetchReportView(reportKey, search);
  }
}
