import { runRequestOf, type SharedBlock, type ReportParamPublic, type ReportRun } from '@dataplatform/contract';
import { myTenantsQueryOptions } from '../../lib/my-tenants.js';
import { getQueryClient } from '../../lib/query-client.js';
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
export function blockPage(block: SharedBlock, search: URLSearchParams): number {
  return Math.max(0, Number.parseInt(search.get(PAGE_PREFIX + block.id) ?? '1', 10) - 1 || 0);
}

/** The run request of one block, its page and sort read from the URL. */
export function blockRunRequest(block: SharedBlock, params: ParamValues, search: URLSearchParams): ReportRun {
  return runRequestOf(block, params, blockPage(block, search), parseSort(search.get(SORT_PREFIX + block.id)));
}

/** The sort after a press on a column's header: ascending first, then the other way. */
export function nextSort(current: ColumnSort | undefined, column: string): ColumnSort {
  return { column, direction: current?.column === column && current.direction === 'asc' ? 'desc' : 'asc' };
}

/** What a block's query is doing, as its frame tells it. */
export type BlockState =
  | { status: 'loading' }
  | { status: 'error'; error: unknown; retry: () => void }
  | { status: 'empty' }
  | { status: 'ready' };

/** A block's state from its run query; `empty` when its first page came back with no rows. */
export function blockState(
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown },
  empty: boolean,
): BlockState {
  if (query.isError) return { status: 'error', error: query.error, retry: () => void query.refetch() };
  if (query.isPending) return { status: 'loading' };
  return empty ? { status: 'empty' } : { status: 'ready' };
}

/**
 * How many block runs a route's loader starts before the viewer's code is in. Over HTTP/1.1 (`npm
 * start` without a proxy) a browser opens six connections to a host: six slow first runs of the
 * demo data would hold the viewer's own chunks back until one answered. The rest start once the
 * viewer renders.
 */
const LOADER_PREFETCHED_RUNS = 4;

/**
 * Starts what a report's view will ask for: its definition, then the first blocks' rows (a chart's
 * drawing is the server's, asked for with them by the viewer). Nothing is awaited: the route renders as soon as its code is in, and the
 * viewer's queries pick up the answers in flight. Failures are the viewer's to show.
 */
export function prefetchReportView(reportKey: string, search: URLSearchParams): void {
  const client = getQueryClient();
  client
    .ensureQueryData(reportQueryOptions(reportKey))
    .then((report) => {
      const params = paramValues(report.params, search);
      const runs = report.blocks.filter((block) => block.kind !== 'text').slice(0, LOADER_PREFETCHED_RUNS);
      for (const block of runs) {
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

/** What Studio's report list asks for first: its first page, and the caller's tenants (whose reports it shows). */
export function prefetchReportList(): void {
  const client = getQueryClient();
  void client.prefetchQuery(reportsQueryOptions({ skip: 0, limit: REPORTS_PAGE_SIZE }));
  void client.prefetchQuery(myTenantsQueryOptions());
}
