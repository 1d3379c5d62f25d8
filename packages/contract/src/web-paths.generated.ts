// Generated from apps/web/src/config/route-table.ts by apps/web/build/web-paths.ts: do not edit.
// npm run generate:web-paths -w apps/web

/** Every page path of the web app (`:name` matches one segment). */
export const WEB_PAGE_PATHS = [
  '/',
  '/login',
  '/login/sso',
  '/signup',
  '/recover-password',
  '/reset-password',
  '/logout',
  '/verify-email',
  '/studio',
  '/about-us',
  '/data-engineering',
  '/high-scale-tableau',
  '/transparency-pipeline',
  '/contact',
  '/payer',
  '/hospital-prices',
  '/cms-fs',
  '/Agent',
  '/s/:token',
  '/embed/:report_id',
] as const;

/** Areas that route further on the client: every path below them belongs to the app. */
export const WEB_AREA_PATHS = [
  '/settings',
  '/admin',
  '/studio',
  '/learn',
] as const;
