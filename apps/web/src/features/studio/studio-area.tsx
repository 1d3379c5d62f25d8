import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import { QueryProvider } from '../../lib/query-client.js';
import { myTenantsQueryOptions } from '../../lib/my-tenants.js';
import { getSelectedTenantId, onSelectedTenantChange } from '../../lib/session.js';
import { ReportList } from './components/report-list.js';
import { ReportViewer } from './components/report-viewer.js';

/** Whose reports the list shows, and with no tenant chosen, how to get one. */
function TenantNote() {
  const tenantId = useSyncExternalStore(onSelectedTenantChange, getSelectedTenantId, () => '');
  const tenants = useQuery(myTenantsQueryOptions());
  if (tenants.isPending) return null;
  const list = tenants.data?.data ?? [];
  const tenant = list.find((candidate) => candidate.id === tenantId);
  if (tenant) {
    return (
      <Typography color="text.secondary">
        The built-in reports, then those of <strong>{tenant.name}</strong>.
      </Typography>
    );
  }
  return (
    <Alert severity="info">
      {list.length > 0
        ? 'You see the built-in reports on the demo data. Choose one of your tenants with the tenant switcher in the top bar to see its reports and sources.'
        : 'You see the built-in reports on the demo data. Reports and data of your own live in a tenant: ask an administrator to add you to one.'}
    </Alert>
  );
}

/** Studio's report list: the built-ins and the selected tenant's reports. */
function ReportsPage() {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <Box>
        <Typography component="h1" variant="h3" sx={{ fontWeight: 700 }}>
          Studio
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1, maxWidth: '70ch' }}>
          Reports defined as data, run on the server and paged as you read them.
        </Typography>
      </Box>
      <TenantNote />
      <ReportList />
    </Box>
  );
}

function ReportPage() {
  const { reportKey = '' } = useParams();
  return <ReportViewer key={reportKey} reportKey={reportKey} />;
}

/** The signed-in Studio area (/studio/reports…): the report list and each report. */
export function StudioArea() {
  return (
    <QueryProvider>
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        <Routes>
          <Route index element={<Navigate to="reports" replace />} />
          <Route path="reports" element={<ReportsPage />} />
          <Route path="reports/:reportKey" element={<ReportPage />} />
          <Route path="*" element={<Navigate to="reports" replace />} />
        </Routes>
      </Container>
    </QueryProvider>
  );
}

/** A built-in report at its showcase path (/payer, /hospital-prices, /cms-fs). */
export function ShowcaseReport() {
  const slug = useLocation().pathname.replace(/^\/+|\/+$/g, '');
  return (
    <QueryProvider>
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        <ReportViewer reportKey={slug} />
      </Container>
    </QueryProvider>
  );
}
