import Container from '@mui/material/Container';
import { useLocation } from 'react-router';
import { QueryProvider } from '../../lib/query-client.js';
import { ReportViewer } from './components/report-viewer.js';
import { showcaseSlug } from './report-view.js';

/** A built-in report at its showcase path (/payer, /hospital-prices, /cms-fs). */
export function ShowcaseReport() {
  const slug = showcaseSlug(useLocation().pathname);
  return (
    <QueryProvider>
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        <ReportViewer reportKey={slug} />
      </Container>
    </QueryProvider>
  );
}
