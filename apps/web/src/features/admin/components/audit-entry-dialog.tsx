import type { AuditEntry } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId } from 'react';
import { formatDateTime } from '../../../lib/format.js';
import { actorLabel, targetLabel, targetName } from './audit-entry-labels.js';

function show(value: unknown): string {
  if (value === undefined) return '';
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Who did what to which record and when, with the values before and after side by side. */
export function AuditEntryDialog({ entry, onClose }: { entry: AuditEntry | undefined; onClose: () => void }) {
  const titleId = useId();
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const keys = entry ? [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])] : [];
  return (
    <Dialog
      open={entry !== undefined}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
      fullScreen={fullScreen}
    >
      {entry ? (
        <>
          <DialogTitle id={titleId}>
            <code>{entry.action}</code>
          </DialogTitle>
          {/* Focusable, so a keyboard can scroll a long list of values. */}
          <DialogContent tabIndex={0}>
            <Typography variant="body2" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
              {actorLabel(entry)} · {targetLabel(entry)}
              {entry.target_id !== null && targetName(entry) !== undefined ? ` (${entry.target_id})` : ''} ·{' '}
              {formatDateTime(entry.created_at)}
              {entry.ip ? ` · from ${entry.ip}` : ''}
            </Typography>
            {keys.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                No values were recorded for this action.
              </Typography>
            ) : (
              <TableContainer sx={{ overflowX: 'auto' }} tabIndex={0}>
                <Table size="small" aria-label="Values before and after">
                  <TableHead>
                    <TableRow>
                      <TableCell sx={{ fontWeight: 600 }}>Field</TableCell>
                      <TableCell sx={{ fontWeight: 600 }}>Before</TableCell>
                      <TableCell sx={{ fontWeight: 600 }}>After</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {keys.map((key) => {
                      const before = entry.before === null ? undefined : entry.before[key];
                      const after = entry.after === null ? undefined : entry.after[key];
                      // On a create or a delete everything is new or gone: only an update has changes.
                      const changed = entry.before !== null && entry.after !== null && show(before) !== show(after);
                      return (
                        <TableRow key={key} selected={changed}>
                          <TableCell component="th" scope="row">
                            {key}
                            {changed ? (
                              <Box component="span" sx={{ ml: 1, color: 'text.secondary' }}>
                                (changed)
                              </Box>
                            ) : undefined}
                          </TableCell>
                          <TableCell sx={{ overflowWrap: 'anywhere', fontFamily: 'monospace', minWidth: 120 }}>
                            {entry.before === null ? '—' : show(before)}
                          </TableCell>
                          <TableCell sx={{ overflowWrap: 'anywhere', fontFamily: 'monospace', minWidth: 120 }}>
                            {entry.after === null ? '—' : show(after)}
                          </TableCell>
                        </TableRow>
                      );
                    })}
                  </TableBody>
                </Table>
              </TableContainer>
            )}
          </DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={onClose}>
              Close
            </Button>
          </DialogActions>
        </>
      ) : undefined}
    </Dialog>
  );
}
