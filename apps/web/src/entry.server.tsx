import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { prerender } from 'react-dom/static';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, ServerRouter, type EntryContext } from 'react-router';
import { AppThemeProvider } from './app/theme.js';
import { AREAS, FRAME_PAGE_IDS, pageRunsApp } from './config/route-table.js';
import { ReportStylePrototype } from './features/studio/report-style-prototype.js';

/**
 * What a page's frame shows as a loading line and the browser draws after load: a showcase report's
 * viewer (over a prototype report), or the area with its tab as the tab looks while its data loads.
 * Rendered beside the page at build time, its styles come with the page instead of being computed
 * and inserted by the browser as it draws (about 230 ms of a load at 4x CPU on /payer).
 */
function frameContent(context: EntryContext, pathname: string): ReactNode {
  const matches = context.staticHandlerContext.matches;
  const leaf = matches.at(-1)?.route.id;
  if (leaf === undefined) return null;
  if (FRAME_PAGE_IDS.has(leaf)) return <ReportStylePrototype />;
  // A tab: the child route of an area (src/routes.ts). The two route modules, in a router of their own.
  const area = matches.at(-2)?.route;
  if (!area || !(area.id in AREAS) || !area.path) return null;
  const Area = context.routeModules[area.id]?.default;
  const Tab = context.routeModules[leaf]?.default;
  if (!Area || !Tab) return null;
  const router = createMemoryRouter(
    [{ path: area.path, element: <Area />, children: [{ path: '*', element: <Tab /> }] }],
    { initialEntries: [pathname] },
  );
  return <RouterProvider router={router} />;
}

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
  // A frame's content, rendered for its styles alone: its markup is dropped.
  const content = frameContent(routerContext, new URL(request.url).pathname);
  if (content) {
    await prerender(
      <CacheProvider value={cache}>
        <AppThemeProvider>{content}</AppThemeProvider>
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
