import type { ClientLoaderFunctionArgs } from 'react-router';
import { requireSignedIn } from '../app/guards.js';
import { prefetchLearnPage } from '../features/learn/api/learn.js';

/**
 * The guard (Learn is for signed-in people: progress is kept per person and tenant), then the
 * tenants and the lessons, fetched beside the page's code.
 */
export function clientLoader({ request }: ClientLoaderFunctionArgs) {
  return requireSignedIn() ?? prefetchLearnPage(new URL(request.url).pathname);
}

/** Nothing of the area shows before its guard has run (the route is not prerendered). */
export function HydrateFallback() {
  return null;
}

export { LearnArea as default } from '../features/learn/learn-area.js';
