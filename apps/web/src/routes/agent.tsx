import type { ClientLoaderFunctionArgs } from 'react-router';
import { requireSignedIn } from '../app/guards.js';
import { prefetchAgentPage } from '../features/studio/api/agent.js';

/** The guard, then the agent's status and the tenant's sources, fetched beside the page's code. */
export function clientLoader(_args: ClientLoaderFunctionArgs) {
  return requireSignedIn() ?? prefetchAgentPage();
}

/** Nothing shows before the guard has run (the page is not prerendered). */
export function HydrateFallback() {
  return null;
}

export { default } from '../features/studio/agent/agent-page.js';
