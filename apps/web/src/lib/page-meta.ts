/** Titles and descriptions per route: the prerender step writes them into each page's <head>. */
export interface PageMeta {
  path: string;
  title: string;
  description: string;
}

export const SITE_NAME = 'Data Platform';

/** The public marketing pages, prerendered to HTML and listed in sitemap.xml. */
export const MARKETING_PAGES: readonly PageMeta[] = [
  {
    path: '/studio',
    title: `Studio: AI-assisted full-stack coding and BI reporting | ${SITE_NAME}`,
    description:
      'Studio is a production-ready app foundation with precision-guided AI prompts and declarative web reporting: an alternative to desktop BI tools.',
  },
  {
    path: '/about-us',
    title: `About Us | ${SITE_NAME}`,
    description:
      'The story, vision, founder and mission behind Data Platform: turning very large data into reports people can trust.',
  },
  {
    path: '/data-engineering',
    title: `Data Engineering consulting | ${SITE_NAME}`,
    description:
      'Data engineering and analytics consulting: cloud platforms, data lakes, performance tuning, cost control and security.',
  },
  {
    path: '/high-scale-tableau',
    title: `High-Scale Tableau deployments | ${SITE_NAME}`,
    description:
      'High-scale BI deployments with automated site replication and extract processing for data sources up to 10GB.',
  },
  {
    path: '/transparency-pipeline',
    title: `Healthcare Price Transparency Pipeline | ${SITE_NAME}`,
    description:
      'A pipeline that turns massive payer price-transparency files into compact, queryable data: payers, plans, providers and CPT codes.',
  },
  {
    path: '/contact',
    title: `Contact Us | ${SITE_NAME}`,
    description: 'Send us a message about Studio, data engineering, high-scale BI or price-transparency pipelines.',
  },
];

/** The auth screens that are prerendered too (decision 031); not in sitemap.xml. */
export const AUTH_PAGES: readonly PageMeta[] = [
  { path: '/login', title: `Log In | ${SITE_NAME}`, description: 'Log in to Data Platform.' },
  { path: '/signup', title: `Sign Up | ${SITE_NAME}`, description: 'Create a Data Platform account.' },
  {
    path: '/recover-password',
    title: `Recover Password | ${SITE_NAME}`,
    description: 'Get a link to reset your Data Platform password.',
  },
  { path: '/reset-password', title: `Reset Password | ${SITE_NAME}`, description: 'Choose a new password.' },
];

const OTHER_PAGES: readonly PageMeta[] = [
  {
    path: '/verify-email',
    title: `Verify E-mail | ${SITE_NAME}`,
    description: 'Verify the e-mail address of your Data Platform account.',
  },
  { path: '/settings', title: `Settings | ${SITE_NAME}`, description: 'Your account settings.' },
  { path: '/admin', title: `Admin Dashboard | ${SITE_NAME}`, description: 'Administer users, roles and tenants.' },
];

export const NOT_FOUND_META: PageMeta = {
  path: '*',
  title: `Page not found | ${SITE_NAME}`,
  description: 'The page you are looking for was not found.',
};

/** The signed-in areas: each of their tabs ('/settings/plans') carries the area's title. */
const AREA_ROOTS = ['/settings', '/admin'];

export function pageMetaFor(pathname: string): PageMeta {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const area = AREA_ROOTS.find((root) => normalized.startsWith(`${root}/`));
  const path = area ?? normalized;
  return [...MARKETING_PAGES, ...AUTH_PAGES, ...OTHER_PAGES].find((page) => page.path === path) ?? NOT_FOUND_META;
}
