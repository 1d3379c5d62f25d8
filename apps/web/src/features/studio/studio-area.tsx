import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import { QueryProvider } from '../../lib/query-client.js';
import { getSelectedTenantId } from '../../lib/session.js';
import { ReportList } from './components/report-list.js';
import { ReportViewer } from './components/report-viewer.js';
import { NewReportButton } from './components/write-actions.js';

// The editor (CodeMirror, the diff) loads on its own route only.
const ReportEditorPage = lazy(() => import('./editor/report-editor.js'));

/** Studio's report list: the built-ins and the selected tenant's reports. */
function ReportsPage() {
  const tenantId = getSelectedTenantId();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: 2 }}>
        <Box sx={{ mr: 'auto' }}>
          <Typography component="h1" variant="h3" sx={{ fontWeight: 700 }}>
            Studio
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1, maxWidth: '70ch' }}>
            Reports defined as data, run on the server and paged as you read them.
          </Typography>
        </Box>
        <NewReportButton />
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

function EditorPage() {
  const { reportKey } = useParams();
  return (
    <Suspense
      fallback={
        <Box role="status" sx={{ py: 6, color: 'text.secondary' }}>
          Loading the editor...
        </Box>
      }
    >
      <ReportEditorPage key={reportKey ?? 'new'} {...(reportKey === undefined ? {} : { reportKey })} />
    </Suspense>
  );
}

function ReportPage() {
  const { reportKey = '' } = useParams();
  return <ReportViewer key={reportKey} reportKey={reportKey} />;
}

/** The signed-in Studio area (/studio/reports…): the report list, each report and its editor. */
export function StudioArea() {
  return (
    <QueryProvider>
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        <Routes>
          <Route index element={<Navigate to="reports" replace />} />
          <Route path="reports" element={<ReportsPage />} />
          <Route path="reports/new" element={<EditorPage />} />
          <Route path="reports/:reportKey" element={<ReportPage />} />
          <Route path="reports/:reportKey/edit" element={<EditorPage />} />
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
