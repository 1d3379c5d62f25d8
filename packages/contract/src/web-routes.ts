/**
 * The web app's page paths (NAV-ROUTES-1, NAV-ROUTES-3). The server answers any other page path with the
 * app's "not found" screen and a real 404 status; the web app's route tree is checked against this
 * list by a test, so the two cannot drift apart.
 */
export const WEB_PAGE_PATHS = [
  '/',
  '/login',
  '/login/sso',
  '/logout',
  '/recover-password',
  '/reset-password',
  '/signup',
  '/verify-email',
  '/studio',
  '/about-us',
  '/contact',
  '/data-engineering',
  '/high-scale-tableau',
  '/transparency-pipeline',
  // The built-in Studio reports' showcase paths (BUILT_IN_REPORT_SLUGS).
  '/payer',
  '/hospital-prices',
  '/cms-fs',
  // The agent (issue 57).
  '/Agent',
  // A report opened by a share link, and a report framed by another site (issue 58).
  '/s/:token',
  '/embed/:report_id',
] as const;

/** Areas that route further on the client: every path below them belongs to the app. */
/** `/learn` is Learn's list and `/learn/{slug}` a lesson (issue 60). */
export const WEB_AREA_PATHS = ['/settings', '/admin', '/studio', '/learn'] as const;

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
