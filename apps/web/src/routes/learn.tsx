import { requireSignedIn } from '../app/guards.js';

/**
 * The guard: Learn is for signed-in people (progress is kept per person and tenant). Each screen's
 * route module (routes/learn/) starts the data it paints first.
 */
export function clientLoader() {
  return requireSignedIn();
}

/** Nothing of the area shows before its guard has run (the route is not prerendered). */
export function HydrateFallback() {
  return null;
}

export { LearnArea as default } from '../features/learn/learn-area.js';
