import type { ClientLoaderFunctionArgs } from 'react-router';
import { requireSignedIn } from '../app/guards.js';
import { prefetchStudioPage } from '../features/studio/report-view.js';

/** The guard, then the data of the page opened (the list, or a report), fetched beside the code. */
export function clientLoader({ request }: ClientLoaderFunctionArgs) {
  const refused = requireSignedIn();
  if (refused) return refused;
  const url = new URL(request.url);
  prefetchStudioPage(url.pathname, url.searchParams);
  return null;
}

/** Nothing of the area shows before its guard has run (the route is not prerendered). */
export function HydrateFallback() {
  return null;
}

export { StudioArea as default } from '../features/studio/studio-area.js';
