import AddIcon from '@mui/icons-material/Add';
import CodeIcon from '@mui/icons-material/Code';
import EditIcon from '@mui/icons-material/Edit';
import ShareIcon from '@mui/icons-material/Share';
import StorageIcon from '@mui/icons-material/Storage';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import type { ReportPublic } from '@dataplatform/contract';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { getSelectedTenantId } from '../../../lib/session.js';
import { lazyDialog } from '../../../components/lazy-dialog.js';
import { accessQueryOptions } from '../api/editor.js';
import type { ParamValues } from '../report-view.js';
import type { ShareDialogProps } from '../sharing/share-dialog.js';

const ShareDialog = lazyDialog<ShareDialogProps>(
  () => import('../sharing/share-dialog.js').then((m) => m.default),
  (props) => props.open,
);

/** Whether the caller may write reports (`reports:write`); false until known. */
function useCanWrite(): boolean {
  const access = useQuery(accessQueryOptions());
  return access.data?.reports_write === true;
}

/**
 * The report list's "New report" (STUDIO-EDIT-1), for holders of `reports:write`. Reports are saved
 * in a tenant: with none selected the button is disabled and a visible line beside it says why (a
 * tooltip on a disabled button reaches neither the keyboard nor a touch screen).
 */
export function NewReportButton() {
  const canWrite = useCanWrite();
  const reasonId = useId();
  if (!canWrite) return null;
  if (getSelectedTenantId() === '') {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Button variant="contained" startIcon={<AddIcon />} disabled aria-describedby={reasonId}>
          New report
        </Button>
        <Typography id={reasonId} variant="body2" color="text.secondary">
          Choose a tenant first: reports are saved in one
        </Typography>
      </Box>
    );
  }
  return (
    <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="/studio/reports/new">
      New report
    </Button>
  );
}

/** The viewer's "Edit", for holders of `reports:write` on a report of the tenant (built-ins are read-only). */
export function EditReportButton({ reportId }: { reportId: string }) {
  const canWrite = useCanWrite();
  if (!canWrite) return null;
  return (
    <Button
      size="small"
      startIcon={<EditIcon />}
      component={RouterLink}
      to={`/studio/reports/${encodeURIComponent(reportId)}/edit`}
    >
      Edit
    </Button>
  );
}

/** The viewer's "Share" (issue 58), for holders of `reports:write`: who sees it, links, embedding. */
export function ShareReportButton({ report, values }: { report: ReportPublic; values: ParamValues }) {
  const canWrite = useCanWrite();
  const [open, setOpen] = useState(false);
  if (!canWrite) return null;
  return (
    <>
      <Button
        size="small"
        startIcon={<ShareIcon />}
        onClick={() => setOpen(true)}
        onPointerEnter={ShareDialog.preload}
        onFocus={ShareDialog.preload}
        aria-haspopup="dialog"
      >
        Share
      </Button>
      <ShareDialog open={open} onClose={() => setOpen(false)} report={report} values={values} />
    </>
  );
}

/** The report list's way to the tenant's embedding settings, for holders of `embed:manage`. */
export function EmbedSettingsButton() {
  const access = useQuery(accessQueryOptions());
  if (access.data?.embed_manage !== true || getSelectedTenantId() === '') return null;
  return (
    <Button variant="outlined" startIcon={<CodeIcon />} component={RouterLink} to="/studio/embed">
      Embedding
    </Button>
  );
}

/** The report list's way to the Sources screen, for holders of `sources:write` (anyone may still open it). */
export function SourcesButton() {
  const access = useQuery(accessQueryOptions());
  if (access.data?.sources_write !== true) return null;
  return (
    <Button variant="outlined" startIcon={<StorageIcon />} component={RouterLink} to="/studio/sources">
      Sources
    </Button>
  );
}
