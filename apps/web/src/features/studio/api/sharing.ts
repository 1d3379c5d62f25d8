import type {
  ChartFormat,
  ChartTheme,
  EmbedSecret,
  EmbedSettings,
  ReportAudience,
  ReportLinkCreate,
  ReportLinkCreated,
  ReportLinks,
  ReportRun,
  ReportRunResult,
  ReportVisibility,
  SharedReport,
} from '@dataplatform/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiDownload, apiRequest } from '../../../lib/api-client.js';
import { blockRunBehaviour, chartQuery, type ChartSource } from './reports.js';
import { getQueryClient } from '../../../lib/query-client.js';

const reportPath = (reportId: string) => `/studio/reports/${encodeURIComponent(reportId)}`;

export const sharingKeys = {
  visibility: (reportId: string) => ['studio', 'sharing', reportId, 'visibility'] as const,
  audience: (reportId: string) => ['studio', 'sharing', reportId, 'audience'] as const,
  links: (reportId: string) => ['studio', 'sharing', reportId, 'links'] as const,
  embedSettings: ['studio', 'embed', 'settings'] as const,
  shared: (token: string) => ['shared', token] as const,
  sharedRun: (token: string, request: ReportRun) => ['shared', token, 'run', request] as const,
  embedded: (reportId: string, token: string) => ['embedded', reportId, token] as const,
  embeddedRun: (reportId: string, token: string, request: ReportRun) =>
    ['embedded', reportId, token, 'run', request] as const,
};

/** `GET /studio/reports/{id}/visibility`: every member of the tenant, or the members and roles named. */
export function visibilityQueryOptions(reportId: string) {
  return queryOptions({
    queryKey: sharingKeys.visibility(reportId),
    queryFn: ({ signal }) => apiRequest<ReportVisibility>({ path: `${reportPath(reportId)}/visibility`, signal }),
    meta: { errorToast: false },
  });
}

/** `GET /studio/reports/{id}/audience`: the members and roles a restricted report may name. */
export function audienceQueryOptions(reportId: string) {
  return queryOptions({
    queryKey: sharingKeys.audience(reportId),
    queryFn: ({ signal }) => apiRequest<ReportAudience>({ path: `${reportPath(reportId)}/audience`, signal }),
    staleTime: 60_000,
    meta: { errorToast: false },
  });
}

/** `PUT /studio/reports/{id}/visibility`. */
export function saveVisibility(reportId: string, visibility: ReportVisibility): Promise<ReportVisibility> {
  return apiRequest<ReportVisibility>({ method: 'PUT', path: `${reportPath(reportId)}/visibility`, json: visibility });
}

/** `GET /studio/reports/{id}/links`: the report's links, newest first (their tokens are never told again). */
export function linksQueryOptions(reportId: string) {
  return queryOptions({
    queryKey: sharingKeys.links(reportId),
    queryFn: ({ signal }) => apiRequest<ReportLinks>({ path: `${reportPath(reportId)}/links`, signal }),
    meta: { errorToast: false },
  });
}

/** `POST /studio/reports/{id}/links`: a new link, its address told this once. */
export function createLink(reportId: string, link: ReportLinkCreate): Promise<ReportLinkCreated> {
  return apiRequest<ReportLinkCreated>({ method: 'POST', path: `${reportPath(reportId)}/links`, json: link });
}

/** `DELETE /studio/links/{id}`: the link answers "gone" from then on. */
export function revokeLink(linkId: string): Promise<void> {
  return apiRequest<void>({ method: 'DELETE', path: `/studio/links/${encodeURIComponent(linkId)}` });
}

/** `GET /studio/embed/settings`: the chosen tenant's allowed origins, and whether its secret is set. */
export function embedSettingsQueryOptions() {
  return queryOptions({
    queryKey: sharingKeys.embedSettings,
    queryFn: ({ signal }) => apiRequest<EmbedSettings>({ path: '/studio/embed/settings', signal }),
    meta: { errorToast: false },
  });
}

/** `PUT /studio/embed/settings`. */
export function saveEmbedOrigins(origins: string[]): Promise<EmbedSettings> {
  return apiRequest<EmbedSettings>({ method: 'PUT', path: '/studio/embed/settings', json: { origins } });
}

/** `POST /studio/embed/secret`: a new secret, told this once; the old one stops working. */
export function rotateEmbedSecret(): Promise<EmbedSecret> {
  return apiRequest<EmbedSecret>({ method: 'POST', path: '/studio/embed/secret' });
}

/**
 * The report's first runs (each block's first page at the values shown) kept as the answers to the
 * viewer's own run requests: a viewer at those values asks for none of them again.
 */
function keepFirstRuns(report: SharedReport, runKey: (request: ReportRun) => readonly unknown[]): SharedReport {
  const client = getQueryClient();
  for (const { request, result } of report.first_runs) client.setQueryData(runKey(request), result);
  return report;
}

/** `GET /studio/public/{token}`: the report a share link shows with its first runs, sent as nobody. */
export function sharedReportQueryOptions(token: string) {
  return queryOptions({
    queryKey: sharingKeys.shared(token),
    queryFn: ({ signal }) =>
      apiRequest<SharedReport>({ path: `/studio/public/${encodeURIComponent(token)}`, anonymous: true, signal }).then(
        (report) => keepFirstRuns(report, (request) => sharingKeys.sharedRun(token, request)),
      ),
    retry: false,
    meta: { errorToast: false },
  });
}

/** `POST /studio/public/{token}/run` for one block. */
export function sharedRunQueryOptions(token: string, request: ReportRun) {
  return queryOptions({
    queryKey: sharingKeys.sharedRun(token, request),
    queryFn: ({ signal }) =>
      apiRequest<ReportRunResult>({
        method: 'POST',
        path: `/studio/public/${encodeURIComponent(token)}/run`,
        json: request,
        anonymous: true,
        signal,
      }),
    ...blockRunBehaviour,
  });
}

/** `POST /studio/embed/report`: the report an embed token shows, with its first runs. */
export function embeddedReportQueryOptions(reportId: string, token: string) {
  return queryOptions({
    queryKey: sharingKeys.embedded(reportId, token),
    queryFn: ({ signal }) =>
      apiRequest<SharedReport>({
        method: 'POST',
        path: '/studio/embed/report',
        json: { report_id: reportId, token },
        anonymous: true,
        signal,
      }).then((report) => keepFirstRuns(report, (request) => sharingKeys.embeddedRun(reportId, token, request))),
    retry: false,
    meta: { errorToast: false },
  });
}

/** `POST /studio/embed/run` for one block, the token's locked values forced by the server. */
export function embeddedRunQueryOptions(reportId: string, token: string, request: ReportRun) {
  return queryOptions({
    queryKey: sharingKeys.embeddedRun(reportId, token, request),
    queryFn: ({ signal }) =>
      apiRequest<ReportRunResult>({
        method: 'POST',
        path: '/studio/embed/run',
        json: { ...request, report_id: reportId, token },
        anonymous: true,
        signal,
      }),
    ...blockRunBehaviour,
  });
}

/** A share link's chart: `GET /studio/public/{token}/charts/{block}.svg|png`, sent as nobody. */
export function sharedChartSource(
  token: string,
  block: string,
  params: Record<string, string>,
  name: string,
): ChartSource {
  const path = (format: ChartFormat, theme: ChartTheme, width: number) =>
    `/studio/public/${encodeURIComponent(token)}/charts/${encodeURIComponent(block)}.${format}?${chartQuery(params, theme, width)}`;
  return {
    key: JSON.stringify(['shared', token, block, params]),
    name,
    svg: (theme, width, signal) => apiRequest<string>({ path: path('svg', theme, width), anonymous: true, signal }),
    file: (format, theme, width) =>
      apiDownload(path(format, theme, width), { anonymous: true }).then(({ blob }) => ({
        blob,
        filename: `${name}.${format}`,
      })),
  };
}

/**
 * An embedded report's chart: `POST /studio/embed/charts/{block}.svg|png`, the token in the body (never
 * in a URL), the token's locked values forced by the server.
 */
export function embeddedChartSource(
  reportId: string,
  token: string,
  block: string,
  params: Record<string, string>,
  name: string,
): ChartSource {
  const path = (format: ChartFormat) => `/studio/embed/charts/${encodeURIComponent(block)}.${format}`;
  const body = (theme: ChartTheme, width: number) => ({ report_id: reportId, token, params, theme, width });
  return {
    key: JSON.stringify(['embedded', reportId, token, block, params]),
    name,
    svg: (theme, width, signal) =>
      apiRequest<string>({ method: 'POST', path: path('svg'), json: body(theme, width), anonymous: true, signal }),
    file: (format, theme, width) =>
      apiDownload(path(format), { json: body(theme, width), anonymous: true }).then(({ blob }) => ({
        blob,
        filename: `${name}.${format}`,
      })),
  };
}
