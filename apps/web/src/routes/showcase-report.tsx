import type { ClientLoaderFunctionArgs } from 'react-router';
import { requireSignedIn } from '../app/guards.js';
import { startChartWorker } from '../features/studio/chart/chart-picture.js';
import { prefetchReportView, showcaseSlug } from '../features/studio/report-view.js';

/**
 * The guard, then the report's definition and rows, fetched while the viewer's code downloads. Every
 * showcase report draws charts: the worker that draws them starts now too, so that Vega is loaded
 * there by the time the rows arrive, not only once the definition has said there are charts.
 */
export function clientLoader({ request }: ClientLoaderFunctionArgs) {
  const refused = requireSignedIn();
  if (refused) return refused;
  const url = new URL(request.url);
  startChartWorker();
  prefetchReportView(showcaseSlug(url.pathname), url.searchParams);
  return null;
}

/** The report's frame, rendered at build time for each showcase path and shown until the guard has run. */
export { ShowcaseFrame as HydrateFallback } from '../features/studio/showcase-frame.js';

export { ShowcaseReport as default } from '../features/studio/showcase-report.js';
