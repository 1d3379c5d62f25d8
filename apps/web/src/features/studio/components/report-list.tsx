import type { ReportListItem, ReportSummary } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { DataTable, useServerPage, type DataTableColumn } from '../../../components/data-table.js';
import { SearchField } from '../../../components/search-field.js';
import { formatDateTime } from '../../../lib/format.js';
import { useSettledValue } from '../../../lib/use-settled-value.js';
import { reportsQueryOptions } from '../api/reports.js';
import { REPORTS_PAGE_SIZE } from '../report-view.js';

/** Where a report is read: the showcase paths for the built-ins, /studio/reports/<slug> for the rest. */
export function reportPath(report: Pick<ReportSummary, 'slug' | 'built_in'>): string {
  return report.built_in ? `/${report.slug}` : `/studio/reports/${encodeURIComponent(report.slug)}`;
}

const SEARCH_DELAY_MS = 300;

const columns: readonly DataTableColumn<ReportListItem>[] = [
  {
    key: 'title',
    header: 'Report',
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
        {/* On a phone the two columns below are hidden: their facts go under the title. */}
        <Typography variant="body2" color="text.secondary" sx={{ display: { md: 'none' }, mt: 0.5 }}>
          Source: {report.source} · {lastChange(report)}
        </Typography>
      </>
    ),
  },
  { key: 'source', header: 'Source', wideOnly: true, render: (report) => report.source },
  {
    key: 'changed',
    header: 'Last change',
    minWidth: 160,
    wideOnly: true,
    render: (report) =>
      report.built_in ? (
        'Built-in'
      ) : (
        <>
          {formatDateTime(report.updated_at)}
          <Typography variant="body2" color="text.secondary">
            {changedBy(report)}
          </Typography>
        </>
      ),
  },
];

function changedBy(report: ReportListItem): string {
  return report.updated_by ? `by ${report.updated_by}` : 'by a deleted account';
}

/** "Built-in", or when and by whom the report was last saved. */
function lastChange(report: ReportListItem): string {
  return report.built_in ? 'Built-in' : `${formatDateTime(report.updated_at)} ${changedBy(report)}`;
}

/** The reports the caller can read: the built-ins, then the selected tenant's own; searchable. */
export function ReportList() {
  const { page, setPage, skip, limit } = useServerPage(REPORTS_PAGE_SIZE);
  const [search, setSearch] = useState('');
  const q = useSettledValue(search.trim(), SEARCH_DELAY_MS);
  const reports = useQuery(reportsQueryOptions({ skip, limit, ...(q ? { q } : {}) }));
  const navigate = useNavigate();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <SearchField
        label="Search reports"
        placeholder="Title, description or slug"
        value={search}
        onChange={(value) => {
          setSearch(value);
          setPage(0);
        }}
        sx={{ width: { xs: '100%', sm: 360 } }}
      />
      <DataTable
        aria-label="Reports"
        columns={columns}
        rows={reports.data?.data}
        rowKey={(report) => report.id}
        loading={reports.isPending}
        error={reports.isError}
        onRetry={() => void reports.refetch()}
        loadingText="Loading reports..."
        emptyText={q ? 'No report matches this search.' : 'No reports yet.'}
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
      {!q && page === 0 && reports.data?.data.every((report) => report.built_in) ? (
        <Typography variant="body2" color="text.secondary">
          No reports of your own yet.{' '}
          <Link component={RouterLink} to="/learn/first-extract">
            Start with the first lesson in Learn
          </Link>
          : it walks you from a file of data to your first report, checking each step.
        </Typography>
      ) : undefined}
    </Box>
  );
}
