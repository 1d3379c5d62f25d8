import {
  STUDIO_EXTRACT_CONTENT_TYPES,
  type STUDIO_SOURCE_KINDS,
  type StudioExtract,
  type StudioExtracts,
} from '@dataplatform/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, apiUpload } from '../../../lib/api-client.js';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation.js';

type StudioSourceKind = (typeof STUDIO_SOURCE_KINDS)[number];

export interface StudioSource {
  id: StudioSourceKind;
  kind: StudioSourceKind;
  name: string;
}

/** Under the editor's `['studio', 'sources', id, 'tables']`, so an upload refreshes its source browser too. */
export const sourceKeys = {
  all: ['studio', 'sources'] as const,
  list: ['studio', 'sources', 'list'] as const,
  extracts: ['studio', 'sources', 'extracts'] as const,
};

/** `GET /studio/sources`: the demo source, then the tenant's own (its database, its extracts). */
export function sourcesQueryOptions() {
  return queryOptions({
    queryKey: sourceKeys.list,
    queryFn: ({ signal }) => apiRequest<{ data: StudioSource[]; count: number }>({ path: '/studio/sources', signal }),
    // The screen says "The sources could not be loaded." itself.
    meta: { errorToast: false },
  });
}

/** `GET /studio/extracts`: the selected tenant's uploaded files, each with its table and columns. */
export function extractsQueryOptions() {
  return queryOptions({
    queryKey: sourceKeys.extracts,
    queryFn: ({ signal }) => apiRequest<StudioExtracts>({ path: '/studio/extracts', signal }),
    meta: { errorToast: false },
  });
}

/** The Content-Type an upload is sent with, from the file's name (or its type); undefined: neither format. */
export function contentTypeOf(file: File): string | undefined {
  const name = file.name.toLowerCase();
  if (name.endsWith('.csv') || file.type === STUDIO_EXTRACT_CONTENT_TYPES.csv) return STUDIO_EXTRACT_CONTENT_TYPES.csv;
  if (name.endsWith('.parquet') || name.endsWith('.parq')) return STUDIO_EXTRACT_CONTENT_TYPES.parquet;
  return undefined;
}

interface ExtractUpload {
  file: File;
  name: string;
  contentType: string;
  onProgress: (sent: number, total: number) => void;
  signal: AbortSignal;
}

/** `POST /studio/extracts?name=`: the file as the body, its progress reported, cancelled with `signal`. */
export function useUploadExtract() {
  return useInvalidatingMutation({
    mutationFn: (upload: ExtractUpload) =>
      apiUpload<StudioExtract>({
        path: '/studio/extracts',
        query: { name: upload.name },
        file: upload.file,
        contentType: upload.contentType,
        onProgress: upload.onProgress,
        signal: upload.signal,
      }),
    // The form shows what went wrong beside itself; a 401 still signs out.
    meta: { errorToast: false },
    successToast: (extract) => `Uploaded: table ${extract.name}, ${extract.rows.toLocaleString('en-US')} rows.`,
    invalidates: sourceKeys.all,
  });
}

/** `DELETE /studio/extracts/{id}`. */
export function useDeleteExtract() {
  return useInvalidatingMutation({
    mutationFn: (extract: StudioExtract) =>
      apiRequest<undefined>({ method: 'DELETE', path: `/studio/extracts/${encodeURIComponent(extract.id)}` }),
    meta: { errorText: 'The extract could not be deleted' },
    successToast: (_, extract) => `Extract “${extract.name}” deleted.`,
    invalidates: sourceKeys.all,
  });
}
