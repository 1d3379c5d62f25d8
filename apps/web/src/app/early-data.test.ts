import type { ReportBlockPublic, ReportPublic } from '@dataplatform/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportChartSource } from '../features/studio/api/reports.js';
import { REPORT_AREA_ATTRIBUTE } from '../features/studio/report-layout.js';
import { getQueryClient } from '../lib/query-client.js';
import { setAccessToken } from '../lib/session.js';
import { serveApi } from '../test/api-server.js';
import { resetSignedInState } from '../test/signed-in.js';
import { startEarlyData } from './early-data.js';

const REPORT_ID = '5d0d1e00-0000-4000-8000-000000000001';
const CHART: ReportBlockPublic = {
  id: 'by_payer',
  kind: 'chart',
  title: 'Median rate by payer',
  chart: { sql: 'SELECT 1', spec: { mark: 'bar' } },
} as unknown as ReportBlockPublic;
const KPI: ReportBlockPublic = { id: 'n', kind: 'kpi', title: 'Count', kpi: { sql: 'SELECT 1', value: 'n' } };
const REPORT = {
  id: REPORT_ID,
  slug: 'payer',
  version: 3,
  params: [{ name: 'code', label: 'Billing code', type: 'text', default: '99213' }],
  blocks: [KPI, CHART],
} as unknown as ReportPublic;

/** Answers the report and its runs; records every URL asked for; a drawing is a tiny SVG. */
function serveReport(): string[] {
  const asked: string[] = [];
  serveApi((url) => {
    asked.push(url);
    if (url === '/api/v1/studio/reports/payer') return Response.json(REPORT);
    if (url.includes('/charts/')) return new Response('<svg xmlns="http://www.w3.org/2000/svg"/>');
    return Response.json({ columns: [{ name: 'n', type: 'INTEGER' }], rows: [[1]], total: 1 });
  });
  return asked;
}

/** A showcase page's prerendered frame: its report area, `width` pixels wide with 24 px padding. */
function frameArea(width: number): void {
  const area = document.createElement('div');
  area.setAttribute(REPORT_AREA_ATTRIBUTE, '');
  area.style.padding = '0 24px';
  Object.defineProperty(area, 'clientWidth', { value: width });
  document.body.append(area);
}

const at = (path: string) => new URL(`http://localhost${path}`) as unknown as Location;

describe('the data a report page starts before the app hydrates', () => {
  afterEach(() => {
    resetSignedInState();
    getQueryClient().clear();
    document.body.replaceChildren();
    document.documentElement.classList.remove('dark');
  });

  it('asks a showcase page for its report, first runs and charts drawn at the width the frame gives them', async () => {
    setAccessToken('token');
    document.documentElement.classList.add('dark');
    frameArea(1200);
    const asked = serveReport();

    startEarlyData(at('/payer?code=99214'));

    // 1 200 px, less the area's padding (2 × 24) and a card's padding and outline (2 × 17).
    const drawing = `/api/v1/studio/reports/${REPORT_ID}/charts/by_payer.svg?theme=dark&width=1118&param.code=99214`;
    await vi.waitFor(() => expect(asked).toContain(drawing));
    expect(asked.filter((url) => url.endsWith('/run'))).toHaveLength(2);

    // The viewer's chart asks the query cache: the drawing already asked for is the one it shows.
    const source = reportChartSource(REPORT, 'by_payer', { code: '99214' }, 'payer-by_payer');
    await expect(source.svg('dark', 1118)).resolves.toContain('<svg');
    expect(asked.filter((url) => url === drawing)).toHaveLength(1);
  });

  it("asks a Studio report's page for its report and runs, and no drawing: no frame says its width", async () => {
    setAccessToken('token');
    const asked = serveReport();

    startEarlyData(at('/studio/reports/payer'));

    await vi.waitFor(() => expect(asked.filter((url) => url.endsWith('/run'))).toHaveLength(2));
    expect(asked.some((url) => url.includes('/charts/'))).toBe(false);
  });

  it('asks for nothing when nobody is signed in, or on a page that shows no saved report', async () => {
    const asked = serveReport();
    frameArea(1200);
    startEarlyData(at('/payer'));
    setAccessToken('token');
    startEarlyData(at('/studio/reports/new'));
    startEarlyData(at('/studio/reports'));
    startEarlyData(at('/pricing'));

    // A page's early data starts in a module loaded on demand: give it the time to.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toEqual([]);
  });
});
