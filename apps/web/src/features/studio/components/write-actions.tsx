import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import StorageIcon from '@mui/icons-material/Storage';
import Button from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { getSelectedTenantId } from '../../../lib/session.js';
import { accessQueryOptions } from '../api/editor.js';

/** Whether the caller may write reports (`reports:write`); false until known. */
function useCanWrite(): boolean {
  const access = useQuery(accessQueryOptions());
  return access.data?.reports_write === true;
}

/**
 * The report list's "New report" (STUDIO-EDIT-1), for holders of `reports:write`. Reports are saved
 * in a tenant: with none selected the button says so instead of leading to a save that must fail.
 */
export function NewReportButton() {
  const canWrite = useCanWrite();
  if (!canWrite) return null;
  if (getSelectedTenantId() === '') {
    return (
      <Tooltip title="Choose a tenant first: reports are saved in one">
        <span>
          <Button variant="contained" startIcon={<AddIcon />} disabled>
            New report
          </Button>
        </span>
      </Tooltip>
    );
  }
  return (
    <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="/studio/reports/new">
      New report
    </Button>
  );
}

/** The viewer's "Edit", for holders of `reports:write` on a report of the tenant (built-ins are read-only). */
export function EditReportButton({ reportId, builtIn }: { reportId: string; builtIn: boolean }) {
  const canWrite = useCanWrite();
  if (!canWrite || builtIn) return null;
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
