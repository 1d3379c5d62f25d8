import type { ClientLoaderFunctionArgs } from 'react-router';
import { requireSignedIn } from '../../app/guards.js';
import { prefetchLearnPage } from '../../features/learn/api/learn.js';

/** The caller's tenants and the lesson, fetched beside the screen's code. */
export function clientLoader({ params }: ClientLoaderFunctionArgs) {
  return requireSignedIn() ?? prefetchLearnPage(params.slug);
}

export { LessonPage as default } from '../../features/learn/learn-area.js';
