import { WEB_AREA_PATHS, WEB_PAGE_PATHS } from './web-paths.generated.js';

/**
 * The web app's page paths (NAV-ROUTES-1, NAV-ROUTES-3) and areas, generated from the web app's route
 * table (apps/web/src/config/route-table.ts), the one place they are declared. The server answers any
 * other page path with the app's "not found" screen and a real 404 status.
 */
export { WEB_AREA_PATHS, WEB_PAGE_PATHS };

/** Whether `path` is the page path `page`, whose `:name` segments match any one non-empty segment. */
export function matchesPagePath(page: string, path: string): boolean {
  if (!page.includes(':')) return page === path;
  const pageSegments = page.split('/');
  const segments = path.split('/');
  return (
    pageSegments.length === segments.length &&
    pageSegments.every((segment, index) =>
      segment.startsWith(':') ? segments[index] !== '' : segment === segments[index],
    )
  );
}

/** Whether the web app has a page at `pathname` (no query string; a trailing slash is allowed). */
export function isWebAppPath(pathname: string): boolean {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (WEB_PAGE_PATHS.some((page) => matchesPagePath(page, path))) return true;
  // `/area/` alone (from `/area//`) names no page below the area.
  return WEB_AREA_PATHS.some((area) => path === area || (path.startsWith(`${area}/`) && path.length > area.length + 1));
}
