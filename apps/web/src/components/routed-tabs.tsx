import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { memo, Suspense, useId, type ReactNode } from 'react';
import { Link as RouterLink, Navigate, Outlet, useLocation, useNavigation, useResolvedPath } from 'react-router';
import { tabSegment } from '../config/paths.js';
import { FOOTER_BELOW_FOLD } from '../lib/footer-below-fold.js';
import { LoadingLine } from './loading-line.js';

export interface RoutedTab {
  label: ReactNode;
  /** The tab's path from config/paths.ts ('/settings/plans'), or just its segment ('plans'). */
  path: string;
  /** The route stays (its screen explains itself) but no tab is shown for it. */
  hidden?: boolean;
}

/**
 * A tab panel's loading line: while the router loads another tab's code, and as a tab route's
 * `HydrateFallback`, the panel of the tab's frame (rendered at build time, shown until its guard has run).
 */
export function TabLoading() {
  return <LoadingLine>Loading...</LoadingLine>;
}

/** The first segment of `pathname` below `base` ('/settings/plans', '/settings' → 'plans'). */
function segmentBelow(pathname: string, base: string): string | undefined {
  if (!pathname.startsWith(`${base}/`)) return undefined;
  return pathname.slice(base.length + 1).split('/')[0];
}

export interface RoutedTabsProps {
  'aria-label': string;
  tabs: readonly RoutedTab[];
}

/**
 * Tabs bound to the URL: each tab is a link to its own path, so a tab can be linked, reloaded and
 * reached with Back. Rendered by an area's route, whose child routes are its tabs (src/routes.ts): the
 * tab panel is their outlet. The area hydrates the markup the build rendered for it, so only the panel
 * changes when the tab's guard has run. The area's own path, an unknown segment and a tab this visitor
 * does not have go (replacing history) to the first tab. While the router loads another tab's code, that tab
 * is already selected and its panel shows a loading line. The tab strip scrolls on a narrow screen.
 *
 * Memoised: the area above re-renders as the page hydrates and as the account arrives, and those
 * renders are synchronous (store updates); with the same `tabs`, MUI's tab strip is not rendered again.
 */
export const RoutedTabs = memo(function RoutedTabs({ 'aria-label': ariaLabel, tabs }: RoutedTabsProps) {
  const idPrefix = useId();
  const base = useResolvedPath('.').pathname.replace(/\/+$/, '');
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const pendingSegment = navigation.location ? segmentBelow(navigation.location.pathname, base) : undefined;
  const entries = tabs.map((tab) => ({ ...tab, segment: tabSegment(tab.path) }));
  const current = pendingSegment ?? segmentBelow(pathname, base) ?? '';
  const tab = entries.find((entry) => entry.segment === current);
  const visible = entries.filter((entry) => !entry.hidden);
  const first = visible[0]?.segment ?? entries[0]?.segment ?? '';
  const selected = visible.some((entry) => entry.segment === current) ? current : false;

  let panel: ReactNode;
  if (!tab) panel = <Navigate to={`${base}/${first}`} replace />;
  else if (pendingSegment !== undefined && navigation.state === 'loading') panel = <TabLoading />;
  else
    panel = (
      <Suspense fallback={<TabLoading />}>
        <Outlet />
      </Suspense>
    );

  return (
    <>
      <Box sx={{ mb: 3 }}>
        {/* MUI's Tabs as links: arrow keys, Home and End move the focus, Enter follows the link. */}
        <Tabs aria-label={ariaLabel} value={selected} variant="scrollable" scrollButtons={false}>
          {visible.map((entry) => (
            <Tab
              key={entry.segment}
              value={entry.segment}
              label={entry.label}
              component={RouterLink}
              to={`${base}/${entry.segment}`}
              id={`${idPrefix}-tab-${entry.segment}`}
              aria-controls={`${idPrefix}-panel`}
            />
          ))}
        </Tabs>
      </Box>
      {/* Marked so the layout keeps the footer below the fold while a tab loads and grows. */}
      <Box
        role="tabpanel"
        id={`${idPrefix}-panel`}
        aria-labelledby={selected === false ? undefined : `${idPrefix}-tab-${selected}`}
        {...{ [FOOTER_BELOW_FOLD]: '' }}
      >
        {panel}
      </Box>
    </>
  );
});
