import type { ClientLoaderFunctionArgs } from 'react-router';
import { requireSignedIn } from '../app/guards.js';
import { prefetchReportView, showcaseSlug } from '../features/studio/report-view.js';

/**
 * The guard, then the report's definition and rows, fetched while the viewer's code downloads. Its
 * charts are the server's drawings (decision 064): no Vega loads before them.
 */
export function clientLoader({ request }: ClientLoaderFunctionArgs) {
  const refused = requireSignedIn();
  if (refused) return refused;
  const url = new URL(request.url);
  prefetchReportView(showcaseSlug(url.pathname), url.searchParams);
  return null;
}

/** The report's frame, rendered at build time for each showcase path and shown until the guard has run. */
export { ShowcaseFrame as HydrateFallback } from '../features/studio/showcase-frame.js';

export { ShowcaseReport as default } from '../features/studio/showcase-report.js';
