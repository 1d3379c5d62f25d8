import { startTransition, useEffect, useState } from 'react';

/** True once this tab's app has finished its first render: hydrated, or rendered from scratch. */
let appRendered = false;

/** For boot.tsx: the app renders from scratch (no markup to hydrate), so it is "hydrated" from the start. */
export function markRenderedFromScratch(): void {
  appRendered = true;
}

/**
 * False while React hydrates prerendered markup (the server's answer), true from then on: what
 * only the browser knows (a stored session, the address's query) must not show in the first render
 * of a prerendered page, or hydration fails and React renders the whole page again.
 *
 * The switch to true after hydration is a transition, so React renders what it reveals in short
 * slices. (`useSyncExternalStore` with a server snapshot of false did the same job, but React
 * re-renders a store whose value changed after hydration synchronously: on a signed-in tab that was
 * the whole app, the tab included, in one long task.) A component first rendered after hydration
 * starts at true.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(appRendered);
  useEffect(() => {
    appRendered = true;
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}
