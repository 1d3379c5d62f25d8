import { CONTACT_STATUSES, type ContactStatus, type ContactSubmission } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { FilterSelect } from '../../../components/filter-select.js';
import {
  DataTable,
  listQueryProps,
  useServerPage,
  useServerPagination,
  type DataTableColumn,
} from '../../../components/data-table.js';
import { formatDate, formatDateTime } from '../../../lib/format.js';
import { showToast } from '../../../lib/toast-store.js';
import { contactsQueryOptions, useUpdateContactStatus } from '../api/contacts.js';

const PAGE_SIZE = 10;

const STATUS_LABELS: Record<ContactStatus, string> = {
  new: 'New',
  read: 'Read',
  replied: 'Replied',
  archived: 'Archived',
  spam: 'Spam',
};

const STATUS_COLORS: Record<ContactStatus, 'primary' | 'default' | 'success' | 'warning'> = {
  new: 'primary',
  read: 'default',
  replied: 'success',
  archived: 'default',
  spam: 'warning',
};

/** What a person can set from the message dialog, with the toast each one ends in. */
const STATUS_ACTIONS: readonly { status: ContactStatus; label: string; done: string }[] = [
  { status: 'read', label: 'Mark as read', done: 'Message marked as read' },
  { status: 'replied', label: 'Mark as replied', done: 'Message marked as replied' },
  { status: 'archived', label: 'Archive', done: 'Message archived' },
  { status: 'spam', label: 'Mark as spam', done: 'Message marked as spam' },
];

function StatusChip({ status }: { status: ContactStatus }) {
  return <Chip size="small" label={STATUS_LABELS[status]} color={STATUS_COLORS[status]} variant="outlined" />;
}

/** A message nobody has opened reads in bold, as in a mail client. */
function Unread({ message, children }: { message: ContactSubmission; children: ReactNode }) {
  return (
    <Box component="span" sx={{ fontWeight: message.status === 'new' ? 700 : 400 }}>
      {children}
    </Box>
  );
}

const columns: DataTableColumn<ContactSubmission>[] = [
  { key: 'received', header: 'Received', render: (row) => formatDate(row.created_at), minWidth: 110 },
  {
    key: 'from',
    header: 'From',
    minWidth: 200,
    render: (row) => (
      <>
        <Unread message={row}>{row.name}</Unread>
        <Typography variant="body2" color="text.secondary" component="span" sx={{ display: 'block' }}>
          {row.email}
        </Typography>
      </>
    ),
  },
  {
    key: 'subject',
    header: 'Subject',
    minWidth: 200,
    render: (row) => <Unread message={row}>{row.subject}</Unread>,
  },
  { key: 'status', header: 'Status', render: (row) => <StatusChip status={row.status} /> },
];

/** The contact-form inbox (ADM-INBOX-1, beyond the product specification): newest first, by status, each message opened whole. */
export function ContactsTab() {
  const [status, setStatus] = useState<ContactStatus | ''>('');
  const paging = useServerPage(PAGE_SIZE);
  const [opened, setOpened] = useState<ContactSubmission>();
  const markRead = useUpdateContactStatus();
  const open = (message: ContactSubmission) => {
    setOpened(message);
    if (message.status === 'new') markRead.mutate({ id: message.id, status: 'read' });
  };
  const query = useQuery(
    contactsQueryOptions({ skip: paging.skip, limit: paging.limit, status: status === '' ? undefined : status }),
  );
  const pagination = useServerPagination(paging, query.data?.count);

  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h2" sx={{ fontSize: '1.5rem' }}>
          Contact messages
        </Typography>
        <FilterSelect
          label="Status"
          value={status}
          onChange={(value) => {
            setStatus(value as ContactStatus | '');
            paging.setPage(0);
          }}
          options={CONTACT_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }))}
        />
      </Box>
      <DataTable
        aria-label="Contact messages"
        columns={columns}
        {...listQueryProps(query)}
        rowKey={(row) => row.id}
        loadingText="Loading messages..."
        emptyText={status === '' ? 'No messages yet.' : 'No messages with this status.'}
        errorText="Error loading messages. Please try again later."
        onRowClick={open}
        pagination={pagination}
      />
      <ContactMessageDialog message={opened} onClose={() => setOpened(undefined)} />
    </Box>
  );
}

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
function ContactMessageDialog({ message, onClose }: { message: ContactSubmission | undefined; onClose: () => void }) {
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
