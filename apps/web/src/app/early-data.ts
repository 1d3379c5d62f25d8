import { matchPath } from 'react-router';
import { AREAS, FRAME_PATHS } from '../config/route-table.js';
import { chartWidthIn, REPORT_AREA_ATTRIBUTE } from '../features/studio/report-layout.js';
import { isLoggedIn } from '../lib/session.js';

/** A report's screen in Studio; `reports/new` is the editor's, matched by its own route first. */
const REPORT_SCREEN = `${AREAS.studioApp.root}/${AREAS.studioApp.screens.report.path}`;
const NEW_REPORT_SCREEN = `${AREAS.studioApp.root}/${AREAS.studioApp.screens.newReport.path}`;

/**
 * Starts the data of the page being opened before the app hydrates it. React Router runs a route's
 * clientLoader once the whole page has hydrated (a third of a second at 4x CPU on /payer); a report's
 * definition, first rows and chart drawings are on their way before that, and the loader finds them
 * in the query cache. The loader stays the one place a route's data is asked for on navigation.
 */
export function startEarlyData(location: Location): void {
  if (!isLoggedIn() || location.pathname === NEW_REPORT_SCREEN) return;
  const reportKey = FRAME_PATHS.includes(location.pathname)
    ? location.pathname.slice(1)
    : matchPath(REPORT_SCREEN, location.pathname)?.params.reportKey;
  if (!reportKey) return;
  const search = new URLSearchParams(location.search);
  void import('../features/studio/report-view.js').then(({ prefetchReportView }) => {
    // A showcase page's prerendered frame already lays out the report's area: its charts' width is known.
    const area = document.querySelector(`[${REPORT_AREA_ATTRIBUTE}]`);
    const theme = document.documentElement.classList.contains('dark') ? 'dark' : 'light';
    prefetchReportView(reportKey, search, area ? { theme, width: chartWidthIn(area) } : undefined);
  });
}
