import { requireSignedIn } from '../app/guards.js';

export const clientLoader = requireSignedIn;

/** Nothing of the area shows before its guard has run (the route is not prerendered). */
export function HydrateFallback() {
  return null;
}

export { ShowcaseReport as default } from '../features/studio/showcase-report.js';
