import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useId, useState, type ReactNode } from 'react';
import { TransferList, type TransferItem } from '../../../components/transfer-list.js';
import { errorText } from '../../../lib/api-error.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { FormError } from '../../../components/form-error.js';

export interface AssignDialogProps {
  open: boolean;
  /** "Assign Roles to User" */
  title: string;
  onClose: () => void;
  /** The dialog's body; it lives only while the dialog is open, so each opening starts afresh. */
  children: ReactNode;
}

/** The frame of the two assignment dialogs (ADM-UROLES-1, ADM-RPERMS-1). */
export function AssignDialog({ open, title, onClose, children }: AssignDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {children}
    </Dialog>
  );
}

export interface AssignBodyProps {
  /** The picker of the user or role whose assignments are edited. */
  picker: ReactNode;
  /** The chosen target's id, once one is chosen. */
  targetId: string | undefined;
  /** Every assignable item (roles, or permissions). */
  items: readonly TransferItem[] | undefined;
  itemsLoading: boolean;
  /** The chosen target's current assignments (ids), once loaded. */
  currentIds: readonly string[] | undefined;
  currentLoading: boolean;
  currentError: boolean;
  onAssign: (targetId: string, ids: string[]) => Promise<unknown>;
  onClose: () => void;
}

/**
 * Choose a target, see its current assignments in "Selected Items" and the rest in "Available
 * Items", move them, then Assign (disabled until a target is chosen and one item is selected).
 * Choosing another target starts again from that target's own assignments.
 */
export function AssignBody({
  picker,
  targetId,
  items,
  itemsLoading,
  currentIds,
  currentLoading,
  currentError,
  onAssign,
  onClose,
}: AssignBodyProps) {
  const [edited, setEdited] = useState<{ targetId: string; ids: string[] }>();
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string>();
  const selectedIds = edited !== undefined && edited.targetId === targetId ? edited.ids : (currentIds ?? []);
  const ready = targetId !== undefined && currentIds !== undefined && items !== undefined;
  const canAssign = ready && selectedIds.length > 0 && !submitting;

  const assign = async () => {
    if (!ready || targetId === undefined) return;
    setSubmitting(true);
    setFailure(undefined);
    try {
      await onAssign(targetId, [...selectedIds]);
      onClose();
    } catch (error) {
      setFailure(errorText(error));
      setSubmitting(false);
    }
  };

  let body: ReactNode;
  if (targetId === undefined) {
    body = (
      <Typography variant="body2" color="text.secondary">
        Choose one to see and change its assignments.
      </Typography>
    );
  } else if (currentLoading || itemsLoading) {
    body = <LoadingLine>Loading assignments...</LoadingLine>;
  } else if (currentError || items === undefined) {
    body = <Alert severity="error">The current assignments could not be loaded.</Alert>;
  } else {
    body = (
      <TransferList
        items={items}
        selectedIds={selectedIds}
        onChange={(ids) => setEdited({ targetId, ids })}
        disabled={submitting}
      />
    );
  }

  return (
    <>
      <DialogContent>
        <Box sx={{ display: 'grid', gap: 2, pt: 1 }}>
          <FormError message={failure} />
          {picker}
          {body}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={submitting}>
          Cancel
        </Button>
        <Button variant="contained" loading={submitting} disabled={!canAssign} onClick={() => void assign()}>
          Assign
        </Button>
      </DialogActions>
    </>
  );
}
