import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => undefined;

/**
 * False while React hydrates prerendered markup (the server's answer), true from then on: what
 * only the browser knows (a stored session, the address's query) must not show in the first render
 * of a prerendered page, or hydration fails and React renders the whole page again.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
