/**
 * The marks by which the script of a prerendered page (src/prerendered.ts) finds what it drives
 * before the app is loaded, if it ever is. Components spread them onto their elements; in the app
 * nothing reads them.
 */

/** The prerendered overlays: one menu per top-bar section, the account menu and the drawer. */
export const overlayIds = {
  navMenu: (index: number) => `static-nav-menu-${index}`,
  accountMenu: 'static-account-menu',
  navDrawer: 'static-nav-drawer',
} as const;

/** On a top-bar button: the prerendered overlay (menu or drawer) it opens. */
export const OPENS = 'data-opens';
export const opens = (overlayId: string) => ({ [OPENS]: overlayId });

/** On the <template> of each prerendered overlay, whose value is the overlay's id. */
export const STATIC_OVERLAY = 'data-static-overlay';
export const staticOverlay = (overlayId: string) => ({ [STATIC_OVERLAY]: overlayId });

/** On the theme toggle. */
export const THEME_TOGGLE = 'data-theme-toggle';
export const themeToggle = { [THEME_TOGGLE]: '' };

/** On a part of a page only the app can run (the contact form): the first sign of its use loads the app. */
export const NEEDS_APP = 'data-needs-app';
export const needsApp = { [NEEDS_APP]: '' };
