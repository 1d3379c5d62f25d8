import type { ClientLoaderFunctionArgs } from 'react-router';
import { requireSignedIn } from '../app/guards.js';
import { prefetchReportView, showcaseSlug } from '../features/studio/report-view.js';

/** The guard, then the report's definition and rows, fetched while the viewer's code downloads. */
export function clientLoader({ request }: ClientLoaderFunctionArgs) {
  const refused = requireSignedIn();
  if (refused) return refused;
  const url = new URL(request.url);
  prefetchReportView(showcaseSlug(url.pathname), url.searchParams);
  return null;
}

/** Nothing of the area shows before its guard has run (the route is not prerendered). */
export function HydrateFallback() {
  return null;
}

export { ShowcaseReport as default } from '../features/studio/showcase-report.js';
