import { lazy } from 'react';

// Menus and the drawer load on first use (or when the pointer nears their button), keeping
// popovers, modals and focus traps out of a marketing page's first load.
export const loadPopupMenu = () => import('./popup-menu.js');
export const loadNavDrawer = () => import('./nav-drawer.js');

export const LazyPopupMenu = lazy(() => loadPopupMenu().then((m) => ({ default: m.PopupMenu })));
export const LazyNavDrawer = lazy(() => loadNavDrawer().then((m) => ({ default: m.NavDrawer })));

// The tenant switcher (and the query client it needs) loads only for a signed-in person.
export const LazyTenantSwitcher = lazy(() =>
  import('../../features/settings/components/tenant-switcher.js').then((m) => ({ default: m.TenantSwitcher })),
);
