import { billingMessages, TRANSACTIONS_PAGE_SIZE, type Transaction } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { DataTable, type DataTableColumn } from '../../../components/data-table.js';
import { useServerPagedList } from '../../../components/server-paged-list.js';
import { formatDate, formatMoney } from '../../../lib/format.js';
import { transactionsQueryOptions } from '../api/transactions.js';
import { TabHeading } from '../../../components/tab-heading.js';

/** Status colours (SET-BILLING-2): succeeded green, pending amber, failed red. */
const STATUS_COLORS = { succeeded: 'success', pending: 'warning', failed: 'error' } as const;

const columns: DataTableColumn<Transaction>[] = [
  {
    key: 'date',
    header: 'Date',
    render: (row) => (
      <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
        {formatDate(row.created_at)}
      </Box>
    ),
  },
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    render: (row) => formatMoney(row.amount, row.currency),
  },
  {
    key: 'status',
    header: 'Status',
    render: (row) => <Chip size="small" label={row.status} color={STATUS_COLORS[row.status]} />,
  },
  {
    key: 'details',
    header: 'Details',
    minWidth: 220,
    render: (row) => (
      <>
        {row.description ?? '-'}
        {row.status === 'failed' && row.error_message ? (
          <Typography variant="body2" color="error" component="span" sx={{ display: 'block' }}>
            {row.error_message}
          </Typography>
        ) : undefined}
      </>
    ),
  },
];

/** Billing History: the caller's charges, ten a page from skip 0 (SET-BILLING-1). */
export function BillingHistoryTab() {
  const { table } = useServerPagedList(TRANSACTIONS_PAGE_SIZE, transactionsQueryOptions);
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2 }}>
      <TabHeading>Billing History</TabHeading>
      <DataTable
        aria-label="Billing history"
        columns={columns}
        {...table}
        rowKey={(row) => row.id}
        loadingText="Loading transactions..."
        emptyText={billingMessages.noTransactions}
        errorText={billingMessages.transactionsLoadFailed}
      />
    </Box>
  );
}
