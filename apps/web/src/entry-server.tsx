import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from './app/app.js';
import { renderStaticOverlays } from './app/prerendered/static-overlays.js';
import { AreaFrameContext } from './lib/area-frame.js';

import { MARKETING_PAGES } from './lib/page-meta.js';

export { AUTH_PAGES, MARKETING_PAGES, pageMetaFor } from './lib/page-meta.js';

// From the route table: every tab of the signed-in areas, whose frames the build writes (decision 032),
// and the source module of each prerendered page.
export { AREA_TAB_PATHS, PRERENDERED_MODULES } from './config/route-table.js';

export interface RenderedPage {
  /** The markup that goes inside #root. */
  html: string;
  /**
   * The top bar's menus and drawer, hidden, for after #root (app/prerendered/static-overlays.tsx);
   * empty for an auth screen, which has no top bar.
   */
  overlays: string;
  /** Emotion's <style> tags for exactly that markup and the overlays, for <head>. */
  styles: string;
}

function page(url: string, cache: ReturnType<typeof createCache>, frame = false) {
  return (
    <StrictMode>
      <AreaFrameContext value={frame}>
        <CacheProvider value={cache}>
          <StaticRouter location={url}>
            <App />
          </StaticRouter>
        </CacheProvider>
      </AreaFrameContext>
    </StrictMode>
  );
}

/** Renders one prerendered page (a marketing page, an auth screen) to HTML at build time. */
export async function renderPage(url: string): Promise<RenderedPage> {
  const { html, cache, styleTagsFor } = await renderComplete(url, false);
  const hasTopBar = MARKETING_PAGES.some((meta) => meta.path === url);
  const overlays = hasTopBar ? await renderStaticOverlays(url, cache) : '';
  return { html, overlays, styles: styleTagsFor(html + overlays) };
}

/**
 * The first pass waits for the route's lazy page to load; the second renders it in one piece, so
 * the HTML needs no inline script to reveal it (the Content-Security-Policy allows none).
 */
async function renderComplete(url: string, frame: boolean) {
  await prerender(page(url, createCache({ key: 'css' }), frame));
  const cache = createCache({ key: 'css' });
  // Before rendering: it switches the cache to collecting styles rather than writing them inline.
  const { extractCriticalToChunks, constructStyleTagsFromChunks } = createEmotionServer(cache);
  const html = renderToString(page(url, cache, frame));
  if (html.includes('<!--$?-->') || html.includes('<!--$!-->')) {
    throw new Error(`prerender: ${url} still has a pending or failed Suspense boundary`);
  }
  if (html.includes('<style')) throw new Error(`prerender: ${url} has styles inline in its markup`);
  /** Emotion's <style> tags for exactly the given markup, for <head>. */
  const styleTagsFor = (markup: string) => constructStyleTagsFromChunks(extractCriticalToChunks(markup));
  return { html, cache, styleTagsFor };
}

/**
 * The frame of a signed-in tab (lib/area-frame.ts): markup to paint while the app loads, which the
 * app then renders over (it does not hydrate it: the tab's content is the user's own).
 */
export async function renderFrame(url: string): Promise<Omit<RenderedPage, 'overlays'>> {
  const { html, styleTagsFor } = await renderComplete(url, true);
  return { html, styles: styleTagsFor(html) };
}
