import Download from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import Button from '@mui/material/Button';
import { ApiError } from '../../../lib/api-error.js';
import { saveFile } from '../../../lib/save-file.js';
import { useDownloadFile } from '../api/download-file.js';
import { downloadableFiles } from '../downloadable-files.js';
import { TabHeading } from '../../../components/tab-heading.js';

export const DOWNLOAD_TEXTS = {
  none: 'No downloads available.',
  forbidden: 'You are not authorized to download this file.',
  failed: 'Download failed.',
} as const;

/** Download (SET-DOWNLOAD-1): one button per `download_` role; failures alert (SET-DOWNLOAD-3, SET-DOWNLOAD-4). */
export function DownloadTab({ roles }: { roles: readonly string[] }) {
  const download = useDownloadFile();
  const files = downloadableFiles(roles);

  if (files.length === 0) return <Typography>{DOWNLOAD_TEXTS.none}</Typography>;

  const start = (file: string) =>
    download.mutate(file, {
      onSuccess: ({ blob, filename }) => saveFile(blob, filename),
      onError: (error) => {
        window.alert(
          error instanceof ApiError && error.status === 403 ? DOWNLOAD_TEXTS.forbidden : DOWNLOAD_TEXTS.failed,
        );
      },
    });

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <TabHeading>Downloads</TabHeading>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        {files.map(({ file, label }) => (
          <Button
            key={file}
            variant="outlined"
            startIcon={<Download aria-hidden="true" />}
            loading={download.isPending && download.variables === file}
            disabled={download.isPending}
            onClick={() => start(file)}
          >
            {label}
          </Button>
        ))}
      </Box>
    </Box>
  );
}
