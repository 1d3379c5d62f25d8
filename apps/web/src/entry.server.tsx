import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { ServerRouter, type EntryContext } from 'react-router';
import { AppThemeProvider } from './app/theme.js';
import { FRAME_PAGE_IDS, pageRunsApp } from './config/route-table.js';
import { ReportStylePrototype } from './features/studio/report-style-prototype.js';

/**
 * Renders a page at build time (React Router's `prerender`; nothing renders on a server at run time).
 * The page is rendered whole, every lazy part loaded (`prerender` waits for them; one chunk, so no
 * script reveals parts later: the Content-Security-Policy allows only the inline scripts whose
 * hashes the build lists), and Emotion's styles for exactly that markup go in <head>, where they
 * apply before the first paint and where the browser's Emotion takes them over.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
): Promise<Response> {
  const cache = createCache({ key: 'css' });
  // Before rendering: it switches the cache to collecting styles rather than writing them inline.
  const { extractCriticalToChunks, constructStyleTagsFromChunks } = createEmotionServer(cache);
  const { prelude } = await prerender(
    <CacheProvider value={cache}>
      <ServerRouter context={routerContext} url={request.url} />
    </CacheProvider>,
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const html = await new Response(prelude).text();
  if (html.includes('<!--$?-->') || html.includes('<!--$!-->')) {
    throw new Error(`prerender: ${request.url} still has a pending or failed Suspense boundary`);
  }
  const leaf = routerContext.staticHandlerContext.matches.at(-1)?.route.id;
  // A showcase report's frame is a loading line: the report is drawn after load. A prototype of the
  // viewer is rendered here for its styles alone (its markup is dropped), so they come with the page
  // instead of being computed and inserted by the browser while it draws the report.
  if (leaf !== undefined && FRAME_PAGE_IDS.has(leaf)) {
    renderToString(
      <CacheProvider value={cache}>
        <AppThemeProvider>
          <ReportStylePrototype />
        </AppThemeProvider>
      </CacheProvider>,
    );
  }
  // A page that runs the app lists every class this render registered, not only those in its markup:
  // MUI composes a component's styles into its root's class, so the component-level classes appear in
  // no element, and the browser's Emotion would parse and insert each of them again while hydrating
  // (110 rules on /settings/profile). Listed in the page's style tags, they are known and skipped. A
  // page without the app keeps to the styles its markup uses.
  const classes = pageRunsApp(leaf) ? ` ${Object.keys(cache.registered).join(' ')}` : '';
  const styles = constructStyleTagsFromChunks(extractCriticalToChunks(html + classes));
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  return new Response(html.replace('</head>', `${styles}</head>`), {
    status: responseStatusCode,
    headers: responseHeaders,
  });
}
