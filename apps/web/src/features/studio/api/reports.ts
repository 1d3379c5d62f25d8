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
import { apiDownload, apiRequest, type DownloadedFile } from '../../../lib/api-client.js';
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
    // Paging and sorting keep the rows in view until the next ones arrive.
    placeholderData: keepPreviousData,
    // Each block says what went wrong in its own frame.
    meta: { errorToast: false },
    // A report's blocks start together; past the tenant's share of the engine the server answers 429
    // at once rather than queueing (decision 044), so a block waits its turn and asks again.
    retry: (failures, error) => error instanceof ApiError && error.status === 429 && failures < 8,
    retryDelay: (failures) => Math.min(4_000, 250 * 2 ** failures),
    staleTime: 60_000,
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

/** Where a saved report's chart block is drawn by the server, and the parameters it is drawn with. */
export interface ChartSource {
  reportId: string;
  block: string;
  params: Record<string, string>;
  /** The file name a download takes, without its extension. */
  name: string;
}

/** The path and query of `GET /studio/reports/{id}/charts/{block}.svg|png`. */
function chartPath(source: ChartSource, format: ChartFormat, theme: ChartTheme, width: number): string {
  const query = new URLSearchParams({ theme, width: String(width) });
  for (const [name, value] of Object.entries(source.params)) query.set(`${CHART_PARAM_PREFIX}${name}`, value);
  return `/studio/reports/${encodeURIComponent(source.reportId)}/charts/${encodeURIComponent(source.block)}.${format}?${query}`;
}

/** The server's SVG of a chart block (checked safe to inline there), `width` pixels wide. */
export function chartSvg(source: ChartSource, theme: ChartTheme, width: number, signal?: AbortSignal): Promise<string> {
  return apiRequest<string>({ path: chartPath(source, 'svg', theme, width), signal });
}

/** A chart block drawn by the server as a file to download. */
export function downloadChart(
  source: ChartSource,
  format: ChartFormat,
  theme: ChartTheme,
  width: number,
): Promise<DownloadedFile> {
  return apiDownload(chartPath(source, format, theme, width)).then(({ blob }) => ({
    blob,
    filename: `${source.name}.${format}`,
  }));
}
