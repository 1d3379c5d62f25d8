import { AREAS, PAGES } from './route-table.js';

type Pages = (typeof PAGES)[number];
type Areas = typeof AREAS;
type AreaPaths<A extends Areas[keyof Areas]> = { readonly root: A['root'] } & {
  readonly [K in keyof A['tabs']]: `${A['root']}/${A['tabs'][K] & string}`;
};
type Paths = { readonly [P in Pages as P['name']]: P['path'] } & {
  readonly [K in keyof Areas]: AreaPaths<Areas[K]>;
};

/**
 * Every path of the web app by name (NAV-ROUTES-1, NAV-ROUTES-3), derived from the route table in
 * config/route-table.ts. Screens link and redirect through these names.
 */
export const paths = {
  ...Object.fromEntries(PAGES.map((page) => [page.name, page.path])),
  ...Object.fromEntries(
    Object.entries(AREAS).map(([name, area]) => [
      name,
      {
        root: area.root,
        ...Object.fromEntries(Object.entries(area.tabs).map(([tab, segment]) => [tab, `${area.root}/${segment}`])),
      },
    ]),
  ),
} as Paths;

/** The last segment of an area path: the tab's own route inside its area ('/settings/plans' → 'plans'). */
export function tabSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
