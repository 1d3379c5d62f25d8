import { useLocation } from 'react-router';
import { QueryProvider } from '../../lib/query-client.js';
import { ReportViewer } from './components/report-viewer.js';
import { showcaseSlug } from './report-view.js';
import { ShowcaseContainer } from './showcase-frame.js';

/** A built-in report at its showcase path (/payer, /hospital-prices, /cms-fs). */
export function ShowcaseReport() {
  const slug = showcaseSlug(useLocation().pathname);
  return (
    <QueryProvider>
      <ShowcaseContainer>
        <ReportViewer reportKey={slug} />
      </ShowcaseContainer>
    </QueryProvider>
  );
}
