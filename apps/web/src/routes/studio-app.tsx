import { requireSignedIn } from '../app/guards.js';

/** The guard; each screen's route module (routes/studio-app/) starts the data it paints first. */
export function clientLoader() {
  return requireSignedIn();
}

/** Nothing of the area shows before its guard has run (the route is not prerendered). */
export function HydrateFallback() {
  return null;
}

export { StudioArea as default } from '../features/studio/studio-area.js';
