import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';
import { AREAS, PAGES, type AreaEntry, type PageEntry } from './config/route-table.js';

/** The pages of one layout group, as React Router routes (NAV-ROUTES-1 to NAV-ROUTES-4). */
function pagesIn(group: PageEntry['layout']) {
  return PAGES.filter((page) => page.layout === group).map((page) =>
    page.path === '/'
      ? index(page.module, { id: page.name })
      : route(page.path.slice(1), page.module, { id: page.name }),
  );
}

/** Matches an area's own path and unknown segments below it; the area sends them to its first tab. */
const AREA_OTHER_PATH = 'routes/area-other-path.tsx';

/**
 * An area with tabs is the parent route of one route module per tab (`routes/<area>/<segment>.tsx`),
 * an area without them of one per screen (its `screens`): the framework preloads the opened one's
 * code with the page and loads another's on the way to it (decision 056).
 */
function areaRoute(name: string, area: AreaEntry) {
  const root = area.root.slice(1);
  const tabs = Object.entries(area.tabs);
  if (tabs.length === 0) {
    return route(
      root,
      area.module,
      { id: name },
      Object.entries(area.screens ?? {}).map(([screen, { path, module }]) =>
        path === '' ? index(module, { id: `${name}.${screen}` }) : route(path, module, { id: `${name}.${screen}` }),
      ),
    );
  }
  return route(root, area.module, { id: name }, [
    index(AREA_OTHER_PATH, { id: `${name}.index` }),
    ...tabs.map(([tab, segment]) => route(segment, `routes/${name}/${segment}.tsx`, { id: `${name}.${tab}` })),
    route('*', AREA_OTHER_PATH, { id: `${name}.other` }),
  ]);
}

// The route tree, derived from the route table (config/route-table.ts): each page and area is declared there once.
export default [
  layout('routes/auth-layout.tsx', pagesIn('auth')),
  ...pagesIn('bare'),
  layout('routes/site-layout.tsx', [
    ...pagesIn('site'),
    ...Object.entries(AREAS).map(([name, area]) => areaRoute(name, area)),
  ]),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
