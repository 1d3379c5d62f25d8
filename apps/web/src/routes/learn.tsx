import type { ClientLoaderFunctionArgs } from 'react-router';
import { requireSignedIn } from '../app/guards.js';

/** The guard: Learn is for signed-in people (their progress is kept per person and tenant). */
export function clientLoader(_args: ClientLoaderFunctionArgs) {
  return requireSignedIn();
}

/** Nothing of the area shows before its guard has run (the route is not prerendered). */
export function HydrateFallback() {
  return null;
}

export { LearnArea as default } from '../features/learn/learn-area.js';
