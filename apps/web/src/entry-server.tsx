import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from './app/app.js';
import { renderStaticOverlays } from './app/prerendered/static-overlays.js';

import { MARKETING_PAGES } from './lib/page-meta.js';

export { AUTH_PAGES, MARKETING_PAGES } from './lib/page-meta.js';

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

function page(url: string, cache: ReturnType<typeof createCache>) {
  return (
    <StrictMode>
      <CacheProvider value={cache}>
        <StaticRouter location={url}>
          <App />
        </StaticRouter>
      </CacheProvider>
    </StrictMode>
  );
}

/**
 * Renders one route to HTML at build time. The first pass waits for the route's lazy page to load;
 * the second renders it in one piece, so the HTML needs no inline script to reveal it (the
 * Content-Security-Policy allows none).
 */
export async function renderPage(url: string): Promise<RenderedPage> {
  await prerender(page(url, createCache({ key: 'css' })));
  const cache = createCache({ key: 'css' });
  const { extractCriticalToChunks, constructStyleTagsFromChunks } = createEmotionServer(cache);
  const html = renderToString(page(url, cache));
  if (html.includes('<!--$?-->') || html.includes('<!--$!-->')) {
    throw new Error(`prerender: ${url} still has a pending or failed Suspense boundary`);
  }
  const hasTopBar = MARKETING_PAGES.some((meta) => meta.path === url);
  const overlays = hasTopBar ? await renderStaticOverlays(url, cache) : '';
  const styles = constructStyleTagsFromChunks(extractCriticalToChunks(html + overlays));
  return { html, overlays, styles };
}
