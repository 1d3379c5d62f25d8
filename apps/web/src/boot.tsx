import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/app.js';
import { AREA_PAGES, PRERENDERED_PAGES } from './app/routes.js';
import { AREA_FRAME_ATTRIBUTE, FrameWhileHydrating } from './lib/area-frame.js';
import { pageMounted } from './lib/page-mounted.js';
import { markRenderedFromScratch } from './lib/use-hydrated.js';

/**
 * Starts the app in #root. A prerendered page (src/prerendered.ts) arrives with its markup: the
 * page's chunk is loaded first, then React hydrates without suspending; `beforeHydrate` runs (and
 * is waited for) right before. A signed-in tab arrives with its frame (decision 032): the area's
 * chunk is loaded, React hydrates the frame, then renders the tab. Any other route arrives as the
 * empty SPA shell (main.tsx). Each as a transition, so React works in short slices and the page
 * stays responsive meanwhile. Settles once the page's content is mounted.
 */
export function startApp({ beforeHydrate }: { beforeHydrate?: () => void | Promise<void> } = {}): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  const pathname = window.location.pathname.replace(/(.)\/+$/, '$1');
  const page = PRERENDERED_PAGES[pathname];
  const area = container.hasAttribute(AREA_FRAME_ATTRIBUTE) ? AREA_PAGES[`/${pathname.split('/')[1]}`] : undefined;
  const routed = (
    <BrowserRouter>
      <App />
    </BrowserRouter>
  );
  const app = <StrictMode>{area ? <FrameWhileHydrating>{routed}</FrameWhileHydrating> : routed}</StrictMode>;
  // What the markup needs loaded so React hydrates it without suspending: the page, or the area.
  const hydrating = area ?? (page && container.hasChildNodes() ? page : undefined);
  if (hydrating) {
    // Should the chunk fail to load, the markup still hydrates (and shows the chunk's error).
    void hydrating
      .preload()
      .catch(() => undefined)
      .then(() => beforeHydrate?.())
      .then(() =>
        startTransition(() => {
          hydrateRoot(container, app);
        }),
      );
  } else {
    markRenderedFromScratch();
    const root = createRoot(container);
    startTransition(() => root.render(app));
  }
  return pageMounted;
}
