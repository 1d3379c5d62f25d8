import {
  CHART_PARAM_PREFIX,
  type ChartFormat,
  type ChartTheme,
  type ReportExport,
  type ReportParamOptions,
  type ReportPublic,
  type ReportRun,
  type ReportRunResult,
  type Reports,
} from '@dataplatform/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { API_BASE, apiDownload, apiRequest, type DownloadedFile } from '../../../lib/api-client.js';
import { earlyDrawing } from '../chart/early-drawings.js';
import { ApiError } from '../../../lib/api-error.js';

export interface ReportListParams {
  skip: number;
  limit: number;
  /** Keeps the reports whose title, description or slug contains it. */
  q?: string;
}

export const reportKeys = {
  all: ['studio', 'reports'] as const,
  list: (params: ReportListParams) => [...reportKeys.all, 'list', params] as const,
  detail: (key: string) => [...reportKeys.all, 'detail', key] as const,
  run: (reportId: string, version: number, request: ReportRun) =>
    [...reportKeys.all, 'run', reportId, version, request] as const,
  options: (reportId: string, version: number, param: string) =>
    [...reportKeys.all, 'options', reportId, version, param] as const,
};

/** `GET /studio/reports`: the built-in reports, then the tenant's own (X-Tenant-ID). */
export function reportsQueryOptions(params: ReportListParams) {
  return queryOptions({
    queryKey: reportKeys.list(params),
    queryFn: ({ signal }) => apiRequest<Reports>({ path: '/studio/reports', query: { ...params }, signal }),
    placeholderData: keepPreviousData,
    // The list says "Reports could not be loaded." itself.
    meta: { errorToast: false },
  });
}

/** `GET /studio/reports/{id or slug}`: the current version, with its parameters and blocks. */
export function reportQueryOptions(key: string) {
  return queryOptions({
    queryKey: reportKeys.detail(key),
    queryFn: ({ signal }) => apiRequest<ReportPublic>({ path: `/studio/reports/${encodeURIComponent(key)}`, signal }),
    // Fetched by the route's loader just before the viewer mounts: the viewer takes that answer
    // rather than asking again. A save here replaces it (editor.ts); another author's shows within 30 s.
    staleTime: 30_000,
    meta: { errorToast: false },
    retry: false,
  });
}

/**
 * How a block's run is fetched wherever a block is drawn (a signed-in report, a share link or embed,
 * an agent's answer): the same engine answers them all. Only its 429 is asked again: never what a
 * link or the server itself refused.
 */
export const blockRunBehaviour = {
  // Paging and sorting keep the rows in view until the next ones arrive.
  placeholderData: keepPreviousData,
  // Each block says what went wrong in its own frame.
  meta: { errorToast: false },
  // A report's blocks start together; past the tenant's share of the engine the server answers 429
  // at once rather than queueing (decision 044), so a block waits its turn and asks again.
  retry: (failures: number, error: Error) => error instanceof ApiError && error.status === 429 && failures < 8,
  retryDelay: (failures: number) => Math.min(4_000, 250 * 2 ** failures),
  staleTime: 60_000,
} as const;

/**
 * `POST /studio/reports/{id}/run` for one block. Keyed by the report's version, so a saved change
 * is never answered from an older version's rows; a block whose answer is still coming is cancelled
 * when its view goes (the server stops the query, decision 044).
 */
export function runBlockQueryOptions(reportId: string, version: number, request: ReportRun) {
  return queryOptions({
    queryKey: reportKeys.run(reportId, version, request),
    queryFn: ({ signal }) =>
      apiRequest<ReportRunResult>({
        method: 'POST',
        path: `/studio/reports/${encodeURIComponent(reportId)}/run`,
        json: request,
        signal,
      }),
    ...blockRunBehaviour,
  });
}

/** `GET /studio/reports/{id}/params/{name}/options`: the values a select parameter's query offers. */
export function paramOptionsQueryOptions(reportId: string, version: number, param: string) {
  return queryOptions({
    queryKey: reportKeys.options(reportId, version, param),
    queryFn: ({ signal }) =>
      apiRequest<ReportParamOptions>({
        path: `/studio/reports/${encodeURIComponent(reportId)}/params/${encodeURIComponent(param)}/options`,
        signal,
      }),
    // The bar falls back to a text field and says so.
    meta: { errorToast: false },
    staleTime: 5 * 60_000,
  });
}

/** `POST /studio/reports/{id}/export`: every row of a table block as a CSV file. */
export function exportBlock(reportId: string, request: ReportExport): Promise<DownloadedFile> {
  return apiDownload(`/studio/reports/${encodeURIComponent(reportId)}/export`, { json: request });
}

/**
 * Where the server draws a chart block (decision 064): a saved report's, a share link's or an embed
 * token's drawing of it, with the parameters it is drawn with. The viewer inlines its SVG first and
 * offers its PNG and SVG as files.
 */
export interface ChartSource {
  /** Equal keys name the same drawing (the block, its report or grant, and its parameters). */
  key: string;
  /** The file name a download takes, without its extension. */
  name: string;
  /**
   * Where the frame's script may have asked for the drawing already (`data-early-drawing`: its
   * address at these parameters, without theme and width; chart/early-drawings.ts).
   */
  early?: string;
  /** The server's SVG (checked safe to inline there), `width` pixels wide. */
  svg: (theme: ChartTheme, width: number, signal?: AbortSignal) => Promise<string>;
  /** The drawing as a file to download; absent where it can't be yet (a report's pending screen). */
  file?: (format: ChartFormat, theme: ChartTheme, width: number) => Promise<DownloadedFile>;
}

/** Each parameter as `param.<name>`: what a chart drawn by GET is drawn at. */
function chartParamQuery(params: Record<string, string>): URLSearchParams {
  return new URLSearchParams(Object.entries(params).map(([name, value]) => [`${CHART_PARAM_PREFIX}${name}`, value]));
}

/** `theme`, `width` and each parameter as `param.<name>`: the query of a chart drawn by GET. */
export function chartQuery(params: Record<string, string>, theme: ChartTheme, width: number): URLSearchParams {
  const query = new URLSearchParams({ theme, width: String(width) });
  for (const [name, value] of chartParamQuery(params)) query.set(name, value);
  return query;
}

/** A saved report's chart: `GET /studio/reports/{id}/charts/{block}.svg|png`. */
export function reportChartSource(
  reportId: string,
  block: string,
  params: Record<string, string>,
  name: string,
): ChartSource {
  const drawing = `/studio/reports/${encodeURIComponent(reportId)}/charts/${encodeURIComponent(block)}`;
  const path = (format: ChartFormat, theme: ChartTheme, width: number) =>
    `${drawing}.${format}?${chartQuery(params, theme, width)}`;
  const early = `${API_BASE}${drawing}.svg?${chartParamQuery(params)}`;
  return {
    key: JSON.stringify(['report', reportId, block, params]),
    name,
    early,
    svg: (theme, width, signal) => {
      const asked = earlyDrawing(early);
      const fetched = () => apiRequest<string>({ path: path('svg', theme, width), signal });
      // The frame's script's drawing when it is the one needed; else (or if it failed) asked for now.
      if (asked?.theme !== theme || asked.width !== width) return fetched();
      return asked.svg.then((svg) => svg ?? fetched());
    },
    file: (format, theme, width) =>
      apiDownload(path(format, theme, width)).then(({ blob }) => ({ blob, filename: `${name}.${format}` })),
  };
}
