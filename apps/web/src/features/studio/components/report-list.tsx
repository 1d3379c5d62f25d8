import type { ReportSummary } from '@dataplatform/contract';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate } from 'react-router';
import { DataTable, useServerPage, type DataTableColumn } from '../../../components/data-table.js';
import { formatDateTime } from '../../../lib/format.js';
import { reportsQueryOptions } from '../api/reports.js';

export const REPORTS_PAGE_SIZE = 20;

/** Where a report is read: the showcase paths for the built-ins, /studio/reports/<slug> for the rest. */
export function reportPath(report: Pick<ReportSummary, 'slug' | 'built_in'>): string {
  return report.built_in ? `/${report.slug}` : `/studio/reports/${encodeURIComponent(report.slug)}`;
}

const columns: readonly DataTableColumn<ReportSummary>[] = [
  {
    key: 'title',
    header: 'Report',
    minWidth: 220,
    render: (report) => (
      <>
        <Link component={RouterLink} to={reportPath(report)} sx={{ fontWeight: 600 }}>
          {report.title}
        </Link>
        {report.description ? (
          <Typography variant="body2" color="text.secondary" sx={{ maxWidth: '60ch' }}>
            {report.description}
          </Typography>
        ) : undefined}
      </>
    ),
  },
  { key: 'source', header: 'Source', render: (report) => report.source },
  {
    key: 'changed',
    header: 'Last change',
    minWidth: 160,
    render: (report) => (report.built_in ? 'Built-in' : formatDateTime(report.updated_at)),
  },
];

/** The reports the caller can read: the built-ins, then the selected tenant's own. */
export function ReportList() {
  const { page, setPage, skip, limit } = useServerPage(REPORTS_PAGE_SIZE);
  const reports = useQuery(reportsQueryOptions({ skip, limit }));
  const navigate = useNavigate();
  return (
    <DataTable
      aria-label="Reports"
      columns={columns}
      rows={reports.data?.data}
      rowKey={(report) => report.id}
      loading={reports.isPending}
      error={reports.isError}
      loadingText="Loading reports..."
      emptyText="No reports yet."
      errorText="Reports could not be loaded."
      onRowClick={(report) => void navigate(reportPath(report))}
      pagination={{
        mode: 'server',
        page,
        pageSize: REPORTS_PAGE_SIZE,
        count: reports.data?.count ?? 0,
        onPageChange: setPage,
      }}
    />
  );
}
