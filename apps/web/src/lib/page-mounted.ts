import { useEffect } from 'react';

let markMounted: () => void = () => undefined;

/**
 * Settles once the app has mounted a page's content in this tab: for a prerendered page, once
 * React has hydrated it (which it does after the top bar, at lower priority), so the script of the
 * page can hand over what happened before (src/prerendered.ts).
 */
export const pageMounted = new Promise<void>((resolve) => {
  markMounted = resolve;
});

/** Rendered after a page's content (the shared layout's outlet, an auth screen's card): it reports the mount. */
export function PageMounted() {
  useEffect(() => markMounted(), []);
  return null;
}
