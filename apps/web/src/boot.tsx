import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/app.js';
import { PRERENDERED_PAGES } from './app/routes.js';
import { pageMounted } from './lib/page-mounted.js';

/**
 * Starts the app in #root. The SPA shell (main.tsx) arrives empty: the app renders at once. A
 * prerendered page (src/prerendered.ts) arrives with its markup: the page's chunk is loaded first,
 * then React hydrates without suspending, as a transition so it hydrates in short slices and the
 * page stays responsive meanwhile; `beforeHydrate` runs (and is waited for) right before. Settles
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
  if (container.hasChildNodes()) {
    const pathname = window.location.pathname.replace(/(.)\/+$/, '$1');
    const page = PRERENDERED_PAGES[pathname];
    // Should the chunk fail to load, the page still hydrates (and shows the chunk's error).
    const pageLoaded = page ? page.preload().catch(() => undefined) : Promise.resolve();
    void pageLoaded
      .then(() => beforeHydrate?.())
      .then(() =>
        startTransition(() => {
          hydrateRoot(container, app);
        }),
      );
  } else {
    createRoot(container).render(app);
  }
  return pageMounted;
}
