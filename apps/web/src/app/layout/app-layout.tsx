import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import type { CSSObject } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from 'react-router';
import { Logo } from '../../components/logo.js';
import { FOOTER_BELOW_FOLD } from '../../lib/footer-below-fold.js';
import { useSignedIn } from '../../lib/use-signed-in.js';
import { NAV_DRAWER_ID, NavDrawer } from './nav-drawer.js';
import { NavMenu } from './nav-menu.js';
import { PageOutlet } from './page-outlet.js';
import { activeSection, NAV_SECTIONS } from './navigation.js';
import { SiteFooter } from './site-footer.js';
import { ThemeToggle } from './theme-toggle.js';
import { UserMenu } from './user-menu.js';

/** Scrolls to the top on each navigation (NAV-LAYOUT-5). */
function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

// The tenant switcher (and the query client it needs) loads only for a signed-in person, on a page
// where the app runs.
const LazyTenantSwitcher = lazy(() =>
  import('../../features/settings/components/tenant-switcher.js').then((m) => ({ default: m.TenantSwitcher })),
);

/** The tenant switcher, for a signed-in person (a component of its own: only it re-renders when that changes). */
function SignedInTenantSwitcher() {
  if (!useSignedIn()) return null;
  return (
    <Suspense fallback={null}>
      <LazyTenantSwitcher />
    </Suspense>
  );
}

const TOP_BAR_BORDER_PX = 1;

/**
 * The toolbar mixin's heights (one per breakpoint and orientation) turned into the screen's height
 * less the top bar: `minHeight: 56` becomes `minHeight: calc(100vh - 57px)`, and so on.
 */
function screenBelow(toolbar: CSSObject, borderPx: number): CSSObject {
  return Object.fromEntries(
    Object.entries(toolbar).map(([key, value]) => {
      if (key === 'minHeight') return [key, `calc(100vh - ${Number(value) + borderPx}px)`];
      return [key, value !== null && typeof value === 'object' ? screenBelow(value as CSSObject, borderPx) : value];
    }),
  );
}

/**
 * The shared layout: top bar with logo, menus (a drawer on narrow screens), user menu, content. Its
 * menus and drawer are the platform's popover and dialog (decision 053): the same markup works on a
 * marketing page that runs no script and in the app.
 */
export function AppLayout() {
  const { pathname } = useLocation();
  const current = activeSection(pathname);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <ScrollToTop />
      <Box
        component="a"
        href="#main"
        sx={{
          position: 'absolute',
          left: 8,
          top: -48,
          zIndex: 2000,
          p: 1,
          bgcolor: 'background.paper',
          color: 'text.primary',
          '&:focus': { top: 8 },
        }}
      >
        Skip to content
      </Box>
      <AppBar
        position="sticky"
        color="inherit"
        elevation={0}
        sx={{
          borderBottom: TOP_BAR_BORDER_PX,
          borderColor: 'divider',
          bgcolor: 'background.paper',
          color: 'text.primary',
        }}
      >
        <Toolbar component="nav" aria-label="Main">
          <IconButton
            color="inherit"
            aria-label="open navigation menu"
            aria-haspopup="dialog"
            data-opens-dialog={NAV_DRAWER_ID}
            edge="start"
            sx={{ mr: 1, display: { xs: 'inline-flex', md: 'none' } }}
          >
            <MenuIcon />
          </IconButton>
          <Logo />
          <Box sx={{ display: { xs: 'none', md: 'flex' }, gap: 0.5 }}>
            {NAV_SECTIONS.map((section) => (
              <NavMenu key={section.label} section={section} current={current === section.label} />
            ))}
          </Box>
          <Box sx={{ flexGrow: 1 }} />
          <SignedInTenantSwitcher />
          <ThemeToggle />
          <UserMenu current={current === 'account'} />
        </Toolbar>
      </AppBar>
      <NavDrawer />
      <Box
        component="main"
        id="main"
        tabIndex={-1}
        sx={(theme) => ({
          flexGrow: 1,
          outline: 'none',
          // A tab panel that loads and grows: the footer waits just below the fold rather than at the
          // screen's foot, so the growing moves nothing in view (no layout shift).
          [`&:has([${FOOTER_BELOW_FOLD}])`]: screenBelow(theme.mixins.toolbar, TOP_BAR_BORDER_PX),
        })}
      >
        <PageOutlet />
      </Box>
      <SiteFooter />
    </Box>
  );
}
