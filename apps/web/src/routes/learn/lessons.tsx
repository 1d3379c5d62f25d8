import { requireSignedIn } from '../../app/guards.js';
import { prefetchLearnPage } from '../../features/learn/api/learn.js';

/** The caller's tenants and the lessons, fetched beside the screen's code. */
export function clientLoader() {
  return requireSignedIn() ?? prefetchLearnPage();
}

export { LessonList as default } from '../../features/learn/learn-area.js';
