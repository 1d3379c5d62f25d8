import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';
import { AREAS, PAGES, type PageEntry } from './config/route-table.js';

/** The pages of one layout group, as React Router routes (NAV-ROUTES-1 to NAV-ROUTES-4). */
function pagesIn(group: PageEntry['layout']) {
  return PAGES.filter((page) => page.layout === group).map((page) =>
    page.path === '/'
      ? index(page.module, { id: page.name })
      : route(page.path.slice(1), page.module, { id: page.name }),
  );
}

/** Each signed-in area matches its root and everything below it; the area routes its tabs itself. */
const areas = Object.entries(AREAS).map(([name, area]) => route(`${area.root.slice(1)}/*`, area.module, { id: name }));

// The route tree, derived from the route table (config/route-table.ts): each page and area is declared there once.
export default [
  layout('routes/auth-layout.tsx', pagesIn('auth')),
  ...pagesIn('bare'),
  layout('routes/site-layout.tsx', [...pagesIn('site'), ...areas]),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
