import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/app.js';
import { PRERENDERED_PAGES } from './app/routes.js';
import { pageMounted } from './lib/page-mounted.js';

/**
 * Starts the app in #root. A prerendered page (src/prerendered.ts) arrives with its markup: the
 * page's chunk is loaded first, then React hydrates without suspending; `beforeHydrate` runs (and
 * is waited for) right before. Any other route arrives as the SPA shell (main.tsx), empty or with
 * the frame of a signed-in tab (decision 032), which the app renders over. Either way as a
 * transition, so React works in short slices and the page stays responsive meanwhile. Settles
 * once the page's content is mounted.
 */
export function startApp({ beforeHydrate }: { beforeHydrate?: () => void | Promise<void> } = {}): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  const app = (
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>
  );
  const pathname = window.location.pathname.replace(/(.)\/+$/, '$1');
  const page = PRERENDERED_PAGES[pathname];
  if (page && container.hasChildNodes()) {
    // Should the chunk fail to load, the page still hydrates (and shows the chunk's error).
    void page
      .preload()
      .catch(() => undefined)
      .then(() => beforeHydrate?.())
      .then(() =>
        startTransition(() => {
          hydrateRoot(container, app);
        }),
      );
  } else {
    // A frame, if any, is replaced when the first render commits.
    const root = createRoot(container);
    startTransition(() => root.render(app));
  }
  return pageMounted;
}
