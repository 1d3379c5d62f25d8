import { CONTACT_STATUSES, type ContactStatus, type ContactSubmission } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { FilterSelect } from '../../../components/filter-select.js';
import { lazyDialog } from '../../../components/lazy-dialog.js';
import { DataTable, type DataTableColumn } from '../../../components/data-table.js';
import { useServerPagedList } from '../../../components/server-paged-list.js';
import { formatDate } from '../../../lib/format.js';
import { contactsQueryOptions, useUpdateContactStatus } from '../api/contacts.js';
import { STATUS_LABELS, StatusChip } from './contact-status.js';
import { TabHeader } from '../../../components/tab-heading.js';

// A message's dialog (MUI's Dialog and Modal) loads as the pointer or the focus nears the table (decision 030).
const ContactMessageDialog = lazyDialog(
  () => import('./contact-message-dialog.js').then((m) => m.ContactMessageDialog),
  (props) => props.message !== undefined,
);

const PAGE_SIZE = 10;

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
  const [opened, setOpened] = useState<ContactSubmission>();
  const markRead = useUpdateContactStatus();
  const open = (message: ContactSubmission) => {
    setOpened(message);
    if (message.status === 'new') markRead.mutate({ id: message.id, status: 'read' });
  };
  const { paging, table } = useServerPagedList(PAGE_SIZE, (page) =>
    contactsQueryOptions({ ...page, status: status === '' ? undefined : status }),
  );

  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2 }}>
      <TabHeader title="Contact messages">
        <FilterSelect
          label="Status"
          value={status}
          onChange={(value) => {
            setStatus(value as ContactStatus | '');
            paging.setPage(0);
          }}
          options={CONTACT_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }))}
        />
      </TabHeader>
      <DataTable
        aria-label="Contact messages"
        columns={columns}
        {...table}
        rowKey={(row) => row.id}
        loadingText="Loading messages..."
        emptyText={status === '' ? 'No messages yet.' : 'No messages with this status.'}
        errorText="Error loading messages. Please try again later."
        onRowClick={open}
        onRowPreload={ContactMessageDialog.preload}
      />
      <ContactMessageDialog message={opened} onClose={() => setOpened(undefined)} />
    </Box>
  );
}
