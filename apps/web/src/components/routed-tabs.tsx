import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { lazy, Suspense, useId, type ComponentType, type ReactNode } from 'react';
import { Link as RouterLink, Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import { tabSegment } from '../config/paths.js';
import { useAreaFrame } from '../lib/area-frame.js';
import { FOOTER_BELOW_FOLD } from '../lib/footer-below-fold.js';
import { LoadingLine } from './loading-line.js';

export interface RoutedTab {
  label: ReactNode;
  /** The tab's path from config/paths.ts ('/settings/plans'), or just its segment ('plans'). */
  path: string;
  element: ReactNode;
  /** The route stays (its screen explains itself) but no tab is shown for it. */
  hidden?: boolean;
  /**
   * The tab shows nothing of anyone's, so its frame holds the tab itself rather than a loading line
   * (decision 036). Its element must render without suspending: not a lazyTab.
   */
  inFrame?: boolean;
}

/**
 * A tab's screen in a chunk of its own, loaded when the tab is first shown: an area's first load
 * carries only the tab it opens on (issue 15's page budget).
 */
export function lazyTab<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  return lazy(async () => ({ default: await load() }));
}

function TabLoading() {
  return <LoadingLine>Loading...</LoadingLine>;
}

export interface RoutedTabsProps {
  'aria-label': string;
  tabs: readonly RoutedTab[];
}

/**
 * Tabs bound to the URL: each tab is a link to its own path, so a tab can be linked, reloaded and
 * reached with Back. Rendered inside an area's splat route ("settings/*"); the area's own path and
 * any unknown segment go (replacing history) to the first tab. The tab strip scrolls on a narrow screen.
 */
export function RoutedTabs({ 'aria-label': ariaLabel, tabs }: RoutedTabsProps) {
  const idPrefix = useId();
  const frame = useAreaFrame();
  const { pathname } = useLocation();
  const rest = useParams()['*'] ?? '';
  const base = pathname.slice(0, pathname.length - rest.length).replace(/\/+$/, '');
  const current = rest.split('/')[0] ?? '';
  const entries = tabs.map((tab) => ({ ...tab, segment: tabSegment(tab.path) }));
  const visible = entries.filter((tab) => !tab.hidden);
  const first = visible[0]?.segment ?? entries[0]?.segment ?? '';
  const selected = visible.some((tab) => tab.segment === current) ? current : false;

  return (
    <>
      <Box sx={{ mb: 3 }}>
        {/* MUI's Tabs as links: arrow keys, Home and End move the focus, Enter follows the link. */}
        <Tabs aria-label={ariaLabel} value={selected} variant="scrollable" scrollButtons={false}>
          {visible.map((tab) => (
            <Tab
              key={tab.segment}
              value={tab.segment}
              label={tab.label}
              component={RouterLink}
              to={`${base}/${tab.segment}`}
              id={`${idPrefix}-tab-${tab.segment}`}
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
        {frame && !entries.find((tab) => tab.segment === current)?.inFrame ? (
          <TabLoading />
        ) : (
          <Suspense fallback={<TabLoading />}>
            <Routes>
              <Route index element={<Navigate to={`${base}/${first}`} replace />} />
              {entries.map((tab) => (
                <Route key={tab.segment} path={tab.segment} element={tab.element} />
              ))}
              <Route path="*" element={<Navigate to={`${base}/${first}`} replace />} />
            </Routes>
          </Suspense>
        )}
      </Box>
    </>
  );
}
