import { requireSignedIn } from '../../app/guards.js';
import { prefetchReportList } from '../../features/studio/report-view.js';

/** The list's first page and the caller's tenants, fetched beside the screen's code. */
export function clientLoader() {
  const refused = requireSignedIn();
  if (refused) return refused;
  prefetchReportList();
  return null;
}

/** /studio/reports: the built-in reports and the selected tenant's. */
export { ReportsPage as default } from '../../features/studio/reports-page.js';
