import { useMutation } from '@tanstack/react-query';
import { apiDownload, type DownloadedFile } from '../../../lib/api-client.js';

/** `GET /files/download/{filename}`: the file a `download_{filename}` role grants. */
export function downloadFile(name: string): Promise<DownloadedFile> {
  return apiDownload(`/files/download/${encodeURIComponent(name)}`);
}

export function useDownloadFile() {
  // The tab alerts its own texts (SET-DOWNLOAD-3, SET-DOWNLOAD-4).
  return useMutation({ mutationFn: downloadFile, meta: { errorToast: false } });
}
