import type { ContactStatus, ContactSubmission } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useId, useState, type ReactNode } from 'react';
import { formatDateTime } from '../../../lib/format.js';
import { showToast } from '../../../lib/toast-store.js';
import { useUpdateContactStatus } from '../api/contacts.js';
import { StatusChip } from './contact-status.js';

/** What a person can set from the message dialog, with the toast each one ends in. */
const STATUS_ACTIONS: readonly { status: ContactStatus; label: string; done: string }[] = [
  { status: 'read', label: 'Mark as read', done: 'Message marked as read' },
  { status: 'replied', label: 'Mark as replied', done: 'Message marked as replied' },
  { status: 'archived', label: 'Archive', done: 'Message archived' },
  { status: 'spam', label: 'Mark as spam', done: 'Message marked as spam' },
];

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </>
  );
}

/** One message, whole, with the status moves. */
export function ContactMessageDialog({
  message,
  onClose,
}: {
  message: ContactSubmission | undefined;
  onClose: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog open={message !== undefined} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      {message ? <ContactMessage key={message.id} message={message} titleId={titleId} onClose={onClose} /> : undefined}
    </Dialog>
  );
}

function ContactMessage({
  message,
  titleId,
  onClose,
}: {
  message: ContactSubmission;
  titleId: string;
  onClose: () => void;
}) {
  const update = useUpdateContactStatus();
  // Opening a new message marks it read (the tab does that as it opens it).
  const [status, setStatus] = useState<ContactStatus>(message.status === 'new' ? 'read' : message.status);

  const move = (next: (typeof STATUS_ACTIONS)[number]) => {
    update.mutate(
      { id: message.id, status: next.status },
      {
        onSuccess: (saved) => {
          setStatus(saved.status);
          showToast(next.done, 'success');
        },
      },
    );
  };

  return (
    <>
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        {message.subject}
      </DialogTitle>
      <DialogContent>
        <Box
          component="dl"
          sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, mt: 0 }}
        >
          <Field label="From">
            {message.name} &lt;<Link href={`mailto:${message.email}`}>{message.email}</Link>&gt;
          </Field>
          <Field label="Company">{message.company ?? '-'}</Field>
          <Field label="Phone">{message.phone ?? '-'}</Field>
          <Field label="Received">{formatDateTime(message.created_at)}</Field>
          <Field label="Source">{message.source}</Field>
          <Field label="Status">
            <StatusChip status={status} />
          </Field>
        </Box>
        <Typography
          component="p"
          sx={{
            mt: 2,
            p: 2,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            bgcolor: 'action.hover',
            borderRadius: 1,
          }}
        >
          {message.message}
        </Typography>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {STATUS_ACTIONS.filter((action) => action.status !== status).map((action) => (
          <Button
            key={action.status}
            variant="outlined"
            loading={update.isPending && update.variables.status === action.status}
            disabled={update.isPending}
            onClick={() => move(action)}
          >
            {action.label}
          </Button>
        ))}
        <Button variant="contained" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </>
  );
}
