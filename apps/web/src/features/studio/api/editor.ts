import type {
  ReportPreview,
  ReportPublic,
  ReportRunResult,
  ReportVersions,
  ReportVersionText,
  StudioAccess,
} from '@dataplatform/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { ApiError } from '../../../lib/api-error.js';
import { reportKeys } from './reports.js';

/** The versions a history page lists. */
export const VERSIONS_PAGE_SIZE = 20;

export const editorKeys = {
  access: ['studio', 'access'] as const,
  tables: (source: string) => ['studio', 'sources', source, 'tables'] as const,
  versions: (reportId: string, skip: number) => [...reportKeys.all, 'versions', reportId, skip] as const,
  version: (reportId: string, version: number) => [...reportKeys.all, 'version', reportId, version] as const,
  preview: (inputs: unknown) => ['studio', 'preview', inputs] as const,
};

/** `GET /studio/access`: whether the caller may write reports (screens hide what it may not do). */
export function accessQueryOptions() {
  return queryOptions({
    queryKey: editorKeys.access,
    queryFn: ({ signal }) => apiRequest<StudioAccess>({ path: '/studio/access', signal }),
    staleTime: 60_000,
    meta: { errorToast: false },
  });
}

interface StudioTables {
  data: { name: string; columns: { name: string; type: string }[] }[];
  count: number;
}

/** `GET /studio/sources/{id}/tables`: the source browser's tables and columns. */
export function sourceTablesQueryOptions(source: string) {
  return queryOptions({
    queryKey: editorKeys.tables(source),
    queryFn: ({ signal }) =>
      apiRequest<StudioTables>({ path: `/studio/sources/${encodeURIComponent(source)}/tables`, signal }),
    staleTime: 5 * 60_000,
    retry: false,
    meta: { errorToast: false },
  });
}

/** `GET /studio/reports/{id}/versions`: who saved each version and when, newest first. */
export function versionsQueryOptions(reportId: string, { skip, limit }: { skip: number; limit: number }) {
  return queryOptions({
    queryKey: editorKeys.versions(reportId, skip),
    queryFn: ({ signal }) =>
      apiRequest<ReportVersions>({
        path: `/studio/reports/${encodeURIComponent(reportId)}/versions`,
        query: { skip, limit },
        signal,
      }),
    placeholderData: keepPreviousData,
    meta: { errorToast: false },
  });
}

/** `GET /studio/reports/{id}/versions/{version}`: one version's whole text, for a diff. */
export function versionTextQueryOptions(reportId: string, version: number) {
  return queryOptions({
    queryKey: editorKeys.version(reportId, version),
    queryFn: ({ signal }) =>
      apiRequest<ReportVersionText>({
        path: `/studio/reports/${encodeURIComponent(reportId)}/versions/${version}`,
        signal,
      }),
    // A saved version never changes.
    staleTime: Number.POSITIVE_INFINITY,
    meta: { errorToast: false },
  });
}

/**
 * `POST /studio/preview` for one block of the text being edited. Keyed by what the block's rows
 * depend on (`inputs`: the source, the parameters, the block, the page), not by the whole text, so
 * editing one block runs that block again and the others keep their answers.
 */
export function previewQueryOptions(request: ReportPreview, inputs: unknown) {
  return queryOptions({
    queryKey: editorKeys.preview(inputs),
    queryFn: ({ signal }) =>
      apiRequest<ReportRunResult>({ method: 'POST', path: '/studio/preview', json: request, signal }),
    placeholderData: keepPreviousData,
    meta: { errorToast: false },
    retry: (failures, error) => error instanceof ApiError && error.status === 429 && failures < 5,
    retryDelay: (failures) => Math.min(4_000, 250 * 2 ** failures),
    staleTime: 30_000,
  });
}

/** A report just saved: cached under its id and its slug, and every report query loaded again. */
function keepSaved(client: QueryClient, saved: ReportPublic): void {
  client.setQueryData(reportKeys.detail(saved.id), saved);
  client.setQueryData(reportKeys.detail(saved.slug), saved);
  void client.invalidateQueries({ queryKey: reportKeys.all });
}

/** Saves the editor's text: POST for a new report, PUT with the version it was edited from otherwise. */
export function useSaveReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: {
      definition: string;
      report?: { id: string; version: number };
      /** The agent's answer accepted into the text: the version is marked "drafted with the agent". */
      agentMessageId?: string | undefined;
    }) => {
      const mark = save.agentMessageId ? { agent_message_id: save.agentMessageId } : {};
      return save.report
        ? apiRequest<ReportPublic>({
            method: 'PUT',
            path: `/studio/reports/${encodeURIComponent(save.report.id)}`,
            json: { definition: save.definition, version: save.report.version, ...mark },
          })
        : apiRequest<ReportPublic>({
            method: 'POST',
            path: '/studio/reports',
            json: { definition: save.definition, ...mark },
          });
    },
    // The editor explains a conflict and a 422 itself; a 401 still signs out.
    meta: { errorToast: false },
    onSuccess: (saved) => keepSaved(client, saved),
  });
}

export function useRestoreVersion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (restore: { reportId: string; version: number }) =>
      apiRequest<ReportPublic>({
        method: 'POST',
        path: `/studio/reports/${encodeURIComponent(restore.reportId)}/versions/${restore.version}/restore`,
      }),
    meta: { errorText: 'The version could not be restored' },
    onSuccess: (saved) => keepSaved(client, saved),
  });
}

export function useDeleteReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (reportId: string) =>
      apiRequest<undefined>({ method: 'DELETE', path: `/studio/reports/${encodeURIComponent(reportId)}` }),
    meta: { errorText: 'The report could not be deleted' },
    onSuccess: () => client.removeQueries({ queryKey: reportKeys.all }),
  });
}

/** The latest saved version of a report, read past the cache (a conflict's "what did they save?"). */
export function fetchLatest(reportId: string): Promise<ReportPublic> {
  return apiRequest<ReportPublic>({ path: `/studio/reports/${encodeURIComponent(reportId)}` });
}
