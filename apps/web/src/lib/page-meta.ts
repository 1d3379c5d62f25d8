import { matchesPagePath } from '@dataplatform/contract';
import { AREAS, PAGES, SITE_NAME } from '../config/route-table.js';

/** Titles and descriptions per route, from the route table: the prerender step writes them into each page's <head>. */
export interface PageMeta {
  path: string;
  title: string;
  description: string;
  /** Never indexed: a page for the holder of its address only. */
  noindex?: boolean;
}

export { SITE_NAME };

const withMeta = (kind: string): PageMeta[] =>
  PAGES.flatMap((page) =>
    page.kind === kind && 'title' in page
      ? [
          {
            path: page.path,
            title: page.title,
            description: page.description,
            ...('noindex' in page ? { noindex: true } : {}),
          },
        ]
      : [],
  );

/** The public marketing pages, prerendered to HTML and listed in sitemap.xml. */
export const MARKETING_PAGES: readonly PageMeta[] = withMeta('marketing');

/** The auth screens that are prerendered too (decision 031); not in sitemap.xml. */
export const AUTH_PAGES: readonly PageMeta[] = withMeta('auth');

const OTHER_PAGES: readonly PageMeta[] = [
  ...withMeta('page'),
  ...Object.values(AREAS).map(({ root, title, description }) => ({ path: root, title, description })),
];

export const NOT_FOUND_META: PageMeta = {
  path: '*',
  title: `Page not found | ${SITE_NAME}`,
  description: 'The page you are looking for was not found.',
};

/** The signed-in areas: each of their tabs ('/settings/plans') carries the area's title. */
export function pageMetaFor(pathname: string): PageMeta {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  // Below an area, the area's own title (/studio is a marketing page, /studio/reports the Studio area).
  const area = Object.values(AREAS).find((entry) => normalized.startsWith(`${entry.root}/`));
  if (area) return { path: area.root, title: area.title, description: area.description };
  return (
    [...MARKETING_PAGES, ...AUTH_PAGES, ...OTHER_PAGES].find((page) => matchesPagePath(page.path, normalized)) ??
    NOT_FOUND_META
  );
}
