/**
 * The one route table (decision 045, step 1): every page and signed-in area of the web app, declared
 * once with its path, kind, title, description and source module. `paths`, the page titles and
 * descriptions, the prerender list, the sitemap, the redirects and the server's list of page paths
 * (generated into the contract by build/web-paths.ts, checked by a test) all derive from it. Plain data, no React: React Router's framework-mode
 * `src/routes.ts` maps these entries to its route config.
 */

export const SITE_NAME = 'Data Platform';

/**
 * - `marketing`: public page, prerendered and listed in sitemap.xml;
 * - `auth`: auth screen, prerendered (decision 031), not in the sitemap;
 * - `page`: rendered in the browser only;
 * - `redirect`: no page of its own.
 */
export type PageKind = 'marketing' | 'auth' | 'page' | 'redirect';

export interface PageEntry {
  /** The key of the page in `paths`. */
  readonly name: string;
  readonly path: string;
  readonly kind: PageKind;
  readonly title?: string;
  readonly description?: string;
  /**
   * What the page sits in: `site` the top bar and footer (app/layout/app-layout.tsx), `auth` the auth
   * screens' group (a signed-in visitor is sent on), `bare` nothing around it.
   */
  readonly layout: 'site' | 'auth' | 'bare';
  /** The page's route module, relative to src/ (React Router's `appDirectory`). */
  readonly module: string;
  /**
   * When the page's HTML is taken over by the app (the default: at once, as the page loads):
   * - `false`: never. A marketing page that needs no React once rendered ships its HTML without the
   *   app's scripts (decision 053); the top bar's menus, drawer and theme toggle work from the platform.
   * - `'on-interaction'`: when the person first moves the pointer, touches, types or focuses something
   *   (decision 058). Until then the page is the platform's, as a static one; its scripts wait, unfetched,
   *   in a <template>. What a person does in the meantime is kept: typing is the browser's, and a send
   *   or a field left is made again once the app runs (app/pre-paint.js).
   */
  readonly hydrate?: false | 'on-interaction';
  /**
   * `true`: a signed-in page whose frame (the layout and its pending state) is rendered at build time,
   * like an area's tabs, so it paints before the app's scripts have run and they load in parallel.
   */
  readonly prerenderFrame?: true;
  /** `true`: a page for the holder of its address only, never indexed (`<meta name="robots">`). */
  readonly noindex?: true;
  /**
   * A `redirect`'s target: a document load goes there before paint (app/pre-paint.js), a link inside
   * the app through the router (routes/redirect.tsx).
   */
  readonly redirectTo?: string;
}

export interface AreaEntry {
  readonly root: string;
  readonly title: string;
  readonly description: string;
  /**
   * The area's route module, relative to src/. An area with tabs is their parent route: each tab is
   * a route module of its own, `routes/<area>/<segment>.tsx`, so a tab's first load preloads its code
   * with the page (src/routes.ts). An area without tabs is the parent of its `screens`.
   */
  readonly module: string;
  /** Each tab's key in `paths` and its segment below the area's root. */
  readonly tabs: Readonly<Record<string, string>>;
  /**
   * An area without tabs: its screens, by route id below the area's, each a route module of its own
   * (relative to src/) at a path below the area's root (`''`: the root itself, `'*'`: any other path
   * below it). The area's module renders them in its `<Outlet />`; the framework preloads the opened
   * screen's code with the page and loads another's on the way to it (decision 056).
   */
  readonly screens?: Readonly<Record<string, AreaScreen>>;
}

export interface AreaScreen {
  readonly path: string;
  readonly module: string;
}

export const PAGES = [
  // `/` is the Studio page (NAV-ROUTES-3).
  { name: 'home', layout: 'site', module: 'routes/redirect.tsx', path: '/', kind: 'redirect', redirectTo: '/studio' },
  {
    name: 'login',
    layout: 'auth',
    module: 'routes/login.tsx',
    path: '/login',
    kind: 'auth',
    title: `Log In | ${SITE_NAME}`,
    description: 'Log in to Data Platform.',
  },
  {
    name: 'loginSso',
    layout: 'auth',
    module: 'routes/login-sso.tsx',
    path: '/login/sso',
    kind: 'page',
  },
  {
    name: 'signup',
    layout: 'auth',
    module: 'routes/signup.tsx',
    path: '/signup',
    kind: 'auth',
    title: `Sign Up | ${SITE_NAME}`,
    description: 'Create a Data Platform account.',
  },
  {
    name: 'recoverPassword',
    layout: 'auth',
    module: 'routes/recover-password.tsx',
    path: '/recover-password',
    kind: 'auth',
    title: `Recover Password | ${SITE_NAME}`,
    description: 'Get a link to reset your Data Platform password.',
  },
  {
    name: 'resetPassword',
    layout: 'auth',
    module: 'routes/reset-password.tsx',
    path: '/reset-password',
    kind: 'auth',
    title: `Reset Password | ${SITE_NAME}`,
    description: 'Choose a new password.',
  },
  {
    name: 'logout',
    layout: 'bare',
    module: 'routes/logout.tsx',
    path: '/logout',
    kind: 'page',
    title: `Log Out | ${SITE_NAME}`,
    description: 'Log out of Data Platform.',
  },
  {
    name: 'verifyEmail',
    layout: 'bare',
    module: 'routes/verify-email.tsx',
    path: '/verify-email',
    kind: 'page',
    title: `Verify E-mail | ${SITE_NAME}`,
    description: 'Verify the e-mail address of your Data Platform account.',
  },
  {
    name: 'studio',
    layout: 'site',
    hydrate: false,
    module: 'routes/studio.tsx',
    path: '/studio',
    kind: 'marketing',
    title: `Studio: AI-assisted full-stack coding and BI reporting | ${SITE_NAME}`,
    description:
      'Studio is a production-ready app foundation with precision-guided AI prompts and declarative web reporting: an alternative to desktop BI tools.',
  },
  {
    name: 'aboutUs',
    layout: 'site',
    hydrate: false,
    module: 'routes/about-us.tsx',
    path: '/about-us',
    kind: 'marketing',
    title: `About Us | ${SITE_NAME}`,
    description:
      'The story, vision, founder and mission behind Data Platform: turning very large data into reports people can trust.',
  },
  {
    name: 'dataEngineering',
    layout: 'site',
    hydrate: false,
    module: 'routes/data-engineering.tsx',
    path: '/data-engineering',
    kind: 'marketing',
    title: `Data Engineering consulting | ${SITE_NAME}`,
    description:
      'Data engineering and analytics consulting: cloud platforms, data lakes, performance tuning, cost control and security.',
  },
  {
    name: 'highScaleTableau',
    layout: 'site',
    hydrate: false,
    module: 'routes/high-scale-tableau.tsx',
    path: '/high-scale-tableau',
    kind: 'marketing',
    title: `High-Scale Tableau deployments | ${SITE_NAME}`,
    description:
      'High-scale BI deployments with automated site replication and extract processing for data sources up to 10GB.',
  },
  {
    name: 'transparencyPipeline',
    layout: 'site',
    hydrate: false,
    module: 'routes/transparency-pipeline.tsx',
    path: '/transparency-pipeline',
    kind: 'marketing',
    title: `Healthcare Price Transparency Pipeline | ${SITE_NAME}`,
    description:
      'A pipeline that turns massive payer price-transparency files into compact, queryable data: payers, plans, providers and CPT codes.',
  },
  {
    name: 'contact',
    layout: 'site',
    module: 'routes/contact.tsx',
    path: '/contact',
    kind: 'marketing',
    hydrate: 'on-interaction',
    title: `Contact Us | ${SITE_NAME}`,
    description: 'Send us a message about Studio, data engineering, high-scale BI or price-transparency pipelines.',
  },
  {
    name: 'payer',
    layout: 'site',
    module: 'routes/showcase-report.tsx',
    path: '/payer',
    kind: 'page',
    prerenderFrame: true,
    title: `Negotiated rates by payer | ${SITE_NAME}`,
    description: 'Studio report: in-network rates by payer for one billing code, on the demo data.',
  },
  {
    name: 'hospitalPrices',
    layout: 'site',
    module: 'routes/showcase-report.tsx',
    path: '/hospital-prices',
    kind: 'page',
    prerenderFrame: true,
    title: `Hospital prices | ${SITE_NAME}`,
    description: 'Studio report: gross, cash and negotiated prices for one service across hospitals.',
  },
  {
    name: 'cmsFs',
    layout: 'site',
    module: 'routes/showcase-report.tsx',
    path: '/cms-fs',
    kind: 'page',
    prerenderFrame: true,
    title: `Fee schedule | ${SITE_NAME}`,
    description: 'Studio report: allowed amounts by locality from the relative values.',
  },
  {
    name: 'agent',
    layout: 'site',
    module: 'routes/agent.tsx',
    path: '/Agent',
    kind: 'page',
    title: `Agent | ${SITE_NAME}`,
    description: 'Ask about your data in plain words, or build a chart by hand, and add it to a report.',
  },
  // A report opened by a share link and one framed by another site (issue 58): no account, no top bar,
  // kept out of search engines (their headers: the server's modules/studio/shared-pages.ts).
  {
    name: 'sharedReport',
    layout: 'bare',
    module: 'routes/shared-report.tsx',
    path: '/s/:token',
    kind: 'page',
    noindex: true,
    title: `Shared report | ${SITE_NAME}`,
    description: 'A Studio report shared with you.',
  },
  {
    name: 'embeddedReport',
    layout: 'bare',
    module: 'routes/embedded-report.tsx',
    path: '/embed/:report_id',
    kind: 'page',
    noindex: true,
    title: `Report | ${SITE_NAME}`,
    description: 'A Studio report.',
  },
] as const satisfies readonly PageEntry[];

export const AREAS = {
  settings: {
    root: '/settings',
    title: `Settings | ${SITE_NAME}`,
    description: 'Your account settings.',
    module: 'routes/settings.tsx',
    tabs: {
      profile: 'profile',
      plans: 'plans',
      paymentMethods: 'payment-methods',
      billingHistory: 'billing-history',
      password: 'password',
      security: 'security',
      download: 'download',
      dangerZone: 'danger-zone',
    },
  },
  admin: {
    root: '/admin',
    title: `Admin Dashboard | ${SITE_NAME}`,
    description: 'Administer users, roles and tenants.',
    module: 'routes/admin.tsx',
    tabs: {
      users: 'users',
      roles: 'roles',
      permissions: 'permissions',
      userRoles: 'user-roles',
      rolePermissions: 'role-permissions',
      tenants: 'tenants',
      sso: 'sso',
      contacts: 'contacts',
      auditLog: 'audit-log',
    },
  },
  // Studio for signed-in users, below the marketing page /studio: /studio/reports and each report.
  studioApp: {
    root: '/studio',
    title: `Studio | ${SITE_NAME}`,
    description: 'Your reports.',
    module: 'routes/studio-app.tsx',
    tabs: {},
    // No screen at the root: /studio is the marketing page.
    screens: {
      reports: { path: 'reports', module: 'routes/studio-app/reports.tsx' },
      newReport: { path: 'reports/new', module: 'routes/studio-app/report-editor.tsx' },
      report: { path: 'reports/:reportKey', module: 'routes/studio-app/report.tsx' },
      editReport: { path: 'reports/:reportKey/edit', module: 'routes/studio-app/report-editor.tsx' },
      sources: { path: 'sources', module: 'routes/studio-app/sources.tsx' },
      embed: { path: 'embed', module: 'routes/studio-app/embed.tsx' },
      other: { path: '*', module: 'routes/studio-app/other-path.tsx' },
    },
  },
  // Guided lessons (issue 60): /learn lists them, /learn/{slug} is one lesson.
  learn: {
    root: '/learn',
    title: `Learn | ${SITE_NAME}`,
    description: 'Guided lessons that check each step on your own data.',
    module: 'routes/learn.tsx',
    tabs: {},
    screens: {
      lessons: { path: '', module: 'routes/learn/lessons.tsx' },
      lesson: { path: ':slug', module: 'routes/learn/lesson.tsx' },
      other: { path: '*', module: 'routes/learn/other-path.tsx' },
    },
  },
} as const satisfies Readonly<Record<string, AreaEntry>>;

/** Each `redirect` page's path and target. */
export const PAGE_REDIRECTS: Readonly<Record<string, string>> = Object.fromEntries(
  PAGES.flatMap((page) => ('redirectTo' in page ? [[page.path, page.redirectTo]] : [])),
);

/** The public marketing pages, prerendered to HTML and listed in sitemap.xml, in the table's order. */
export const MARKETING_PATHS: readonly string[] = PAGES.filter((page) => page.kind === 'marketing').map(
  (page) => page.path,
);

/** The route ids (page names) of the pages whose HTML ships without the app's scripts. */
const STATIC_PAGE_IDS: ReadonlySet<string> = new Set(
  PAGES.filter((page) => 'hydrate' in page && page.hydrate === false).map((page) => page.name),
);

/** Whether the page whose innermost route is `leafRouteId` ships the app's scripts (no leaf: the 404 page does). */
export function pageRunsApp(leafRouteId: string | undefined): boolean {
  return leafRouteId === undefined || !STATIC_PAGE_IDS.has(leafRouteId);
}

/** The pages whose app runs on the person's first interaction (their scripts held by build/finish-build.ts). */
export const ON_INTERACTION_PATHS: readonly string[] = PAGES.filter(
  (page) => 'hydrate' in page && page.hydrate === 'on-interaction',
).map((page) => page.path);

/** The auth screens that are prerendered too (decision 031); not in sitemap.xml. */
export const AUTH_PATHS: readonly string[] = PAGES.filter((page) => page.kind === 'auth').map((page) => page.path);

/** Every page path (areas not included): the server's list (the contract's WEB_PAGE_PATHS) is generated from it. */
export const PAGE_PATHS: readonly string[] = PAGES.map((page) => page.path);

/** The signed-in areas' roots: the server's list (the contract's WEB_AREA_PATHS) is generated from it. */
export const AREA_ROOTS: readonly string[] = Object.values(AREAS).map((area) => area.root);

/** Every tab of the signed-in areas ('/settings/plans'). */
export const AREA_TAB_PATHS: readonly string[] = Object.values(AREAS).flatMap((area) =>
  Object.values(area.tabs).map((segment) => `${area.root}/${segment}`),
);

/** The signed-in pages whose frame is rendered at build time (the showcase reports). */
export const FRAME_PATHS: readonly string[] = PAGES.filter((page) => 'prerenderFrame' in page).map((page) => page.path);

/** The route ids (page names) of the pages whose frame is rendered at build time. */
export const FRAME_PAGE_IDS: ReadonlySet<string> = new Set(
  PAGES.filter((page) => 'prerenderFrame' in page).map((page) => page.name),
);

/** Every page rendered to HTML at build time: the marketing pages and the auth screens. */
export const PRERENDERED_PATHS: readonly string[] = [...MARKETING_PATHS, ...AUTH_PATHS];
