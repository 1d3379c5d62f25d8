import type { ReportPublic, ReportVersion } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { DataTable, type DataTableColumn } from '../../../components/data-table.js';
import { useServerPagedList } from '../../../components/server-paged-list.js';
import { errorText } from '../../../lib/api-error.js';
import { formatDateTime } from '../../../lib/format.js';
import { showToast } from '../../../lib/toast-store.js';
import { useRestoreVersion, versionsQueryOptions, versionTextQueryOptions, VERSIONS_PAGE_SIZE } from '../api/editor.js';
import { TextDiff } from './text-diff.js';
import { LoadingLine } from '../../../components/loading-line.js';

/** The editor's unsaved text, as a side of a comparison. */
export const MINE = 0;

function versionName(version: number): string {
  return version === MINE ? 'your text (not saved)' : `version ${version}`;
}

function author(version: ReportVersion): string {
  return version.author_email ?? (version.author_id ? 'a deleted user' : 'Built-in');
}

/** The text of one side: a saved version's, or the editor's own. */
function useSide(reportId: string, version: number, mine: string | undefined) {
  const query = useQuery({ ...versionTextQueryOptions(reportId, version), enabled: version !== MINE });
  if (version === MINE) return { text: mine ?? '', pending: false, error: undefined };
  return { text: query.data?.definition, pending: query.isPending, error: query.isError ? query.error : undefined };
}

/**
 * Two versions as a line diff (mounted when opened: `initial` is read once) (STUDIO-EDIT-5): any two saved versions, or one of them
 * against the text in the editor (after a conflict: what the other person saved against one's own).
 */
export function DiffDialog({
  open,
  onClose,
  reportId,
  latestVersion,
  initial,
  mine,
}: {
  open: boolean;
  onClose: () => void;
  reportId: string;
  latestVersion: number;
  initial: { from: number; to: number };
  /** The editor's text, offered as a side when given. */
  mine?: string;
}) {
  const titleId = useId();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const before = useSide(reportId, from, mine);
  const after = useSide(reportId, to, mine);
  const choices = [
    ...(mine === undefined ? [] : [MINE]),
    ...Array.from({ length: latestVersion }, (_, i) => latestVersion - i),
  ];
  const select = (label: string, value: number, onChange: (value: number) => void) => (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(Number(event.target.value))}
      sx={{ minWidth: 200 }}
    >
      {choices.map((choice) => (
        <MenuItem key={choice} value={choice}>
          {choice === MINE ? 'Your text (not saved)' : `Version ${choice}`}
        </MenuItem>
      ))}
    </TextField>
  );
  const error = before.error ?? after.error;
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md" fullScreen={phone}>
      <DialogTitle id={titleId}>Compare versions</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, pt: 1 }}>
          {select('From', from, setFrom)}
          {select('To', to, setTo)}
        </Box>
        {error ? (
          <Typography role="alert" color="error">
            The versions could not be loaded: {errorText(error)}
          </Typography>
        ) : before.pending || after.pending ? (
          <LoadingLine sx={{ color: 'text.secondary' }}>Loading the versions...</LoadingLine>
        ) : (
          <TextDiff
            before={before.text ?? ''}
            after={after.text ?? ''}
            label={`Changes from ${versionName(from)} to ${versionName(to)}`}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The report's saved versions, newest first, with who saved each and when (STUDIO-EDIT-4): compare
 * any with the one before it, and restore one (a new version with its text; history is kept).
 */
export function VersionHistory({
  report,
  canWrite,
  dirty,
  onRestored,
}: {
  report: Pick<ReportPublic, 'id' | 'version' | 'built_in'>;
  canWrite: boolean;
  /** Whether the editor holds unsaved changes (a restore replaces them). */
  dirty: boolean;
  onRestored: (report: ReportPublic) => void;
}) {
  const { table } = useServerPagedList(VERSIONS_PAGE_SIZE, (page) => versionsQueryOptions(report.id, page));
  const [compare, setCompare] = useState<{ from: number; to: number } | undefined>(undefined);
  const [restoring, setRestoring] = useState<number | undefined>(undefined);
  const restore = useRestoreVersion();

  const theme = useTheme();
  // On a phone a row stacks who and when under the version, and its buttons one above the other,
  // so the history fits the screen's width instead of scrolling sideways.
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const versionCell = (version: ReportVersion) => (
    <>
      {version.version}
      {version.version === report.version ? ' (current)' : ''}
      {version.restored_from !== null ? (
        <Typography variant="body2" color="text.secondary">
          restores {version.restored_from}
        </Typography>
      ) : undefined}
      {version.drafted_with_agent ? (
        <Typography variant="body2" color="text.secondary">
          drafted with the agent
        </Typography>
      ) : undefined}
    </>
  );
  const columns: DataTableColumn<ReportVersion>[] = narrow
    ? [
        {
          key: 'version',
          header: 'Version',
          render: (version) => (
            <>
              {versionCell(version)}
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                Saved by {author(version)}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {formatDateTime(version.created_at)}
              </Typography>
            </>
          ),
        },
      ]
    : [
        { key: 'version', header: 'Version', render: versionCell },
        { key: 'author', header: 'Saved by', render: author },
        { key: 'when', header: 'When', minWidth: 150, render: (version) => formatDateTime(version.created_at) },
      ];

  const confirmRestore = () => {
    if (restoring === undefined) return;
    restore.mutate(
      { reportId: report.id, version: restoring },
      {
        onSuccess: (saved) => {
          setRestoring(undefined);
          showToast(`Version ${restoring} restored as version ${saved.version}.`, 'success');
          onRestored(saved);
        },
        onError: () => setRestoring(undefined),
      },
    );
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mr: 'auto' }}>
          Version history
        </Typography>
        <Button
          size="small"
          variant="outlined"
          disabled={report.version < 2}
          onClick={() => setCompare({ from: report.version - 1, to: report.version })}
        >
          Compare versions
        </Button>
      </Box>
      <DataTable
        aria-label="Versions"
        columns={columns}
        {...table}
        rowKey={(version) => String(version.version)}
        loadingText="Loading the versions..."
        emptyText="No versions yet."
        errorText="The versions could not be loaded."
        actions={(version) => (
          <Box
            sx={{
              display: 'flex',
              flexDirection: narrow ? 'column' : 'row',
              alignItems: narrow ? 'flex-end' : 'center',
              gap: 0.5,
              justifyContent: 'flex-end',
            }}
          >
            <Button
              size="small"
              disabled={version.version < 2}
              aria-label={`Compare version ${version.version} with version ${version.version - 1}`}
              onClick={() => setCompare({ from: version.version - 1, to: version.version })}
            >
              Changes
            </Button>
            {canWrite && !report.built_in ? (
              <Button
                size="small"
                disabled={version.version === report.version}
                aria-label={`Restore version ${version.version}`}
                onClick={() => setRestoring(version.version)}
              >
                Restore
              </Button>
            ) : undefined}
          </Box>
        )}
      />
      {compare ? (
        <DiffDialog
          open
          onClose={() => setCompare(undefined)}
          reportId={report.id}
          latestVersion={report.version}
          initial={compare}
        />
      ) : undefined}
      <ConfirmDialog
        open={restoring !== undefined}
        title={`Restore version ${restoring ?? ''}?`}
        confirmLabel="Restore"
        destructive={false}
        loading={restore.isPending}
        onConfirm={confirmRestore}
        onClose={() => setRestoring(undefined)}
      >
        Its text is saved again as a new version; every version stays in the history.
        {dirty ? ' The unsaved changes in the editor are replaced by it.' : ''}
      </ConfirmDialog>
    </Box>
  );
}
