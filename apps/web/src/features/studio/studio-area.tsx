import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import { QueryProvider } from '../../lib/query-client.js';
import { getSelectedTenantId } from '../../lib/session.js';
import { ReportList } from './components/report-list.js';
import { ReportViewer } from './components/report-viewer.js';

/** Studio's report list: the built-ins and the selected tenant's reports. */
function ReportsPage() {
  const tenantId = getSelectedTenantId();
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
      {tenantId === '' ? (
        <Alert severity="info">
          You see the built-in reports on the demo data. Reports and data of your own live in a tenant: ask an
          administrator to add you to one, then choose it with the tenant switcher in Settings.
        </Alert>
      ) : undefined}
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
