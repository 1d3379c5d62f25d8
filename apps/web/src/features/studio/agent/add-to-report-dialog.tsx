import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import type { ReportPublic } from '@dataplatform/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { LoadingLine } from '../../../components/loading-line.js';
import { ApiError, errorText } from '../../../lib/api-error.js';
import { useAddToReport, type BlockToAdd } from '../api/agent-reports.js';
import { reportsQueryOptions } from '../api/reports.js';
import { reportPath } from '../components/report-list.js';
import { NativeChoice } from './native-choice.js';

/** Reports of the tenant the list offers to add to: one page, the most a page may hold. */
const REPORT_CHOICES = 100;

export interface AddToReportDialogProps {
  open: boolean;
  onClose: () => void;
  /** The block to add (and the answer it came from); undefined while closed. */
  add: (Omit<BlockToAdd, 'reportId'> & { source: string; title: string }) | undefined;
}

/**
 * "Add to report": the block goes into a new report of its own, or at the end of one of the
 * tenant's reports on the same source (a new version, restorable like any). Says where it went, with
 * a link to it.
 */
export default function AddToReportDialog({ open, onClose, add }: AddToReportDialogProps) {
  const ids = { title: useId(), where: useId() };
  const [where, setWhere] = useState<'new' | 'existing'>('new');
  const [reportId, setReportId] = useState('');
  const [saved, setSaved] = useState<ReportPublic | undefined>(undefined);
  const mutation = useAddToReport();
  const reports = useQuery({ ...reportsQueryOptions({ skip: 0, limit: REPORT_CHOICES }), enabled: open });
  const fitting = (reports.data?.data ?? []).filter((report) => !report.built_in && report.source === add?.source);
  const chosen =
    reportId !== '' && fitting.some((report) => report.id === reportId) ? reportId : (fitting[0]?.id ?? '');

  const close = () => {
    onClose();
    setSaved(undefined);
    mutation.reset();
  };
  const submit = () => {
    if (!add) return;
    mutation.mutate(
      { ...add, ...(where === 'existing' ? { reportId: chosen } : {}) },
      { onSuccess: (report) => setSaved(report) },
    );
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby={ids.title} fullWidth maxWidth="sm">
      <DialogTitle id={ids.title}>Add “{add?.title}” to a report</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {saved ? (
          <Alert role="none" severity="success">
            <span role="status">
              Added to “{saved.title}” as version {saved.version}
              {add?.messageId ? ', marked “drafted with the agent” in its history' : ''}.
            </span>
          </Alert>
        ) : (
          <>
            <RadioGroup
              aria-labelledby={ids.where}
              value={where}
              onChange={(event) => setWhere(event.target.value as 'new' | 'existing')}
            >
              <Typography id={ids.where} variant="body2" color="text.secondary">
                Where should the block go?
              </Typography>
              <FormControlLabel value="new" control={<Radio />} label="A new report of its own" />
              <FormControlLabel
                value="existing"
                control={<Radio />}
                label="The end of one of this tenant’s reports"
                disabled={reports.isSuccess && fitting.length === 0}
              />
            </RadioGroup>
            {reports.isPending ? (
              <LoadingLine sx={{ color: 'text.secondary' }}>Loading the tenant’s reports...</LoadingLine>
            ) : fitting.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                This tenant has no report on the {add?.source} source yet: the block starts a new one.
              </Typography>
            ) : where === 'existing' ? (
              <NativeChoice
                label="Report"
                value={chosen}
                onChange={setReportId}
                options={fitting.map((report) => ({ value: report.id, label: report.title }))}
                minWidth={240}
              />
            ) : undefined}
            {mutation.isError ? (
              <Alert role="none" severity="error">
                <span role="alert">
                  {mutation.error instanceof ApiError && mutation.error.code === 'report_conflict'
                    ? 'Someone saved that report just now: add the block again to add it to their version.'
                    : `The block could not be added: ${errorText(mutation.error)}`}
                </span>
              </Alert>
            ) : undefined}
          </>
        )}
      </DialogContent>
      <DialogActions>
        {saved ? (
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button component={RouterLink} to={`/studio/reports/${encodeURIComponent(saved.slug)}/edit`}>
              Open it in the editor
            </Button>
            <Button component={RouterLink} to={reportPath(saved)}>
              View the report
            </Button>
            <Button variant="contained" onClick={close}>
              Close
            </Button>
          </Box>
        ) : (
          <>
            <Button onClick={close}>Cancel</Button>
            <Button variant="contained" loading={mutation.isPending} onClick={submit}>
              {where === 'existing' && fitting.length > 0 ? 'Add to the report' : 'Create the report'}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
