export interface NavItem {
  label: string;
  to: string;
}

export interface NavSection {
  label: string;
  items: readonly NavItem[];
}

/** The top-bar menus (NAV-LAYOUT-2). */
export const NAV_SECTIONS: readonly NavSection[] = [
  {
    label: 'Platform',
    items: [
      { label: 'Studio', to: '/studio' },
      { label: 'Reports', to: '/studio/reports' },
      { label: 'Learn', to: '/learn' },
    ],
  },
  {
    label: 'Solutions & Services',
    items: [
      { label: 'Data Engineering', to: '/data-engineering' },
      { label: 'High-Scale Tableau', to: '/high-scale-tableau' },
      { label: 'Transparency Pipeline', to: '/transparency-pipeline' },
    ],
  },
  {
    label: 'Company',
    items: [
      { label: 'About Us', to: '/about-us' },
      { label: 'Contact', to: '/contact' },
    ],
  },
];

/** The paths the layout is told of (NAV-LAYOUT-6): product screens and the signed-in areas. */
export const LAYOUT_PATHS = [
  '/studio',
  '/settings',
  '/payer',
  '/hospital-prices',
  '/cms-fs',
  '/Agent',
  '/learn',
  '/admin',
] as const;

const SIGNED_IN_PATHS: readonly string[] = ['/settings', '/admin'];

/** Which top-bar entry a path belongs to, so the bar can mark it as current. */
export function activeSection(pathname: string): string | undefined {
  const layoutPath = LAYOUT_PATHS.find((path) => pathname === path || pathname.startsWith(`${path}/`));
  if (layoutPath) return SIGNED_IN_PATHS.includes(layoutPath) ? 'account' : 'Platform';
  return NAV_SECTIONS.find((section) => section.items.some((item) => item.to === pathname))?.label;
}
