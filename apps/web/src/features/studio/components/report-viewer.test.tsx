import { BUILT_IN_REPORT_HEADERS, type ReportPublic, type ReportRunResult } from '@dataplatform/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { server, serveApi } from '../../../test/api-server.js';
import { renderWithFreshClient } from '../../../test/render-in-app.js';
import { ReportViewer } from './report-viewer.js';

const REPORT: ReportPublic = {
  id: '5d0d1e00-0000-4000-8000-000000000009',
  slug: 'rates',
  title: 'Rates',
  description: 'Rates by payer',
  source: 'demo',
  version: 3,
  built_in: false,
  visibility: 'tenant',
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-02T10:00:00.000Z',
  definition: 'title: Rates',
  cache_seconds: 0,
  created_by: null,
  params: [
    {
      name: 'code',
      label: 'Billing code',
      type: 'select',
      default: '99213',
      options: ['99213', '99214'],
      options_sql: null,
    },
    { name: 'state', label: 'State', type: 'text', default: '', options: null, options_sql: null },
  ],
  blocks: [
    { id: 'median', kind: 'kpi', title: 'Median rate', kpi: { sql: 'SELECT 1', value: 'median', format: 'currency' } },
    { id: 'slow', kind: 'kpi', title: 'Slow figure', kpi: { sql: 'SELECT 1', value: 'n', format: 'integer' } },
    { id: 'rows', kind: 'table', title: 'Outliers', table: { sql: 'SELECT 1', page_size: 2 } },
    {
      id: 'note',
      kind: 'text',
      title: null,
      text: 'A rate **twice** the median.',
      html: '<p>A rate <strong>twice</strong> the median.</p>',
    },
  ],
};

interface RunBody {
  block: string;
  params: Record<string, unknown>;
  skip: number;
  limit?: number;
  sort?: { column: string; direction: string }[];
}

function result(columns: string[], rows: unknown[][], count = rows.length): ReportRunResult {
  return { columns: columns.map((name) => ({ name, type: 'DOUBLE' })), rows, count, cached: false, elapsed_ms: 1 };
}

/** The server: the report, and each block's run; `slow` fails with a 500 until `slowWorks`. */
function serve() {
  const runs: RunBody[] = [];
  const state = { slowWorks: false };
  serveApi(async (url, init) => {
    if (url === '/api/v1/studio/reports/rates') return Response.json(REPORT);
    if (url === `/api/v1/studio/reports/${REPORT.id}/run`) {
      const body = JSON.parse(init.body as string) as RunBody;
      runs.push(body);
      if (body.block === 'median') return Response.json(result(['median'], [[166.36]]));
      if (body.block === 'slow') {
        return state.slowWorks
          ? Response.json(result(['n'], [[33414]]))
          : Response.json({ detail: 'The query took too long', code: 'query_timeout' }, { status: 504 });
      }
      const all = [
        ['Aetna', 10],
        ['Cigna', 20],
        ['Humana', 30],
      ];
      return Response.json(result(['payer', 'rate'], all.slice(body.skip, body.skip + (body.limit ?? 2)), 3));
    }
    return Response.json({ detail: 'Not Found' }, { status: 404 });
  });
  return { runs, state };
}

/** Where the viewer's router is: the URL a shared link would carry. */
const seen = { location: '' };
function Where() {
  const current = useLocation();
  useEffect(() => {
    seen.location = current.pathname + current.search;
  });
  return null;
}

function view(entry = '/studio/reports/rates') {
  return renderWithFreshClient(
    <MemoryRouter initialEntries={[entry]}>
      <ReportViewer reportKey="rates" />
      <Where />
    </MemoryRouter>,
  );
}

afterEach(() => vi.unstubAllGlobals());

/** A select parameter whose values come from the report's source. */
const QUERIED_CODE: ReportPublic['params'][number] = {
  name: 'code',
  label: 'Billing code',
  type: 'select',
  default: '99213',
  options: null,
  options_sql: 'SELECT billing_code FROM billing_codes',
};

describe('ReportViewer (STUDIO-VIEW)', () => {
  it("lays out a built-in report's parameters and first blocks, and the page's early chart drawing, before the report arrives", async () => {
    const payer = BUILT_IN_REPORT_HEADERS.payer.id;
    const drawing =
      '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="120"><rect width="640" height="120"/></svg>';
    const address = `/api/v1/studio/reports/${payer}/charts/median_by_payer.svg?param.code=99213&param.state=`;
    // As the frame's early-drawings-script.js leaves it: the drawing it asked for as the HTML arrived.
    window.earlyChartDrawings = {
      [address]: { theme: 'light', width: 640, svg: Promise.resolve(drawing), text: drawing },
    };
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        disconnect() {}
      },
    );
    let answerReport: () => void = () => undefined;
    const reportAnswered = new Promise<void>((resolve) => (answerReport = resolve));
    serveApi(async (url) => {
      if (url === '/api/v1/studio/reports/payer') {
        await reportAnswered;
        return Response.json({ detail: 'Not Found' }, { status: 404 });
      }
      if (url === `/api/v1/studio/reports/${payer}/params/code/options`)
        return Response.json({ data: ['99213'], count: 1 });
      return Response.json({ detail: 'Not Found' }, { status: 404 });
    });
    renderWithFreshClient(
      <MemoryRouter initialEntries={['/payer']}>
        <ReportViewer reportKey="payer" />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Negotiated rates by payer' })).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'Billing code' })).toHaveValue('99213');
    expect(screen.getByRole('textbox', { name: 'State (two letters, blank for all)' })).toHaveValue('');
    for (const name of ['Median negotiated rate', 'Rates on file', 'Payers']) {
      expect(within(screen.getByRole('region', { name })).getByRole('status')).toHaveTextContent(
        'Running the query...',
      );
    }
    const chart = screen.getByRole('region', { name: 'Median rate by payer' });
    const picture = within(chart).getByRole('img');
    expect(picture).toHaveAttribute('data-early-drawing', address);
    expect(picture.querySelector('svg rect')).not.toBeNull();
    expect(within(chart).queryByText('Drawing the chart...')).toBeNull();
    expect(within(chart).getByRole('button', { name: 'View as table' })).toBeDisabled();
    // The blocks below the first chart come with the report.
    expect(screen.queryByRole('region', { name: /^Spread of rates/ })).toBeNull();
    answerReport();
    expect(await screen.findByRole('alert')).toHaveTextContent('There is no report here');
    delete window.earlyChartDrawings;
  });

  it('runs each block on its own: figures, a failing block with Try again, a paged table and markdown', async () => {
    const user = userEvent.setup();
    const { state } = serve();
    view();
    expect(await screen.findByRole('heading', { level: 1, name: 'Rates' })).toBeVisible();
    const median = await screen.findByRole('region', { name: 'Median rate' });
    expect(await within(median).findByText('$166.36')).toBeVisible();

    const slow = screen.getByRole('region', { name: 'Slow figure' });
    expect(await within(slow).findByRole('alert')).toHaveTextContent(/could not be loaded: The query took too long/);
    state.slowWorks = true;
    await user.click(within(slow).getByRole('button', { name: 'Try again' }));
    expect(await within(slow).findByText('33,414')).toBeVisible();

    const table = screen.getByRole('region', { name: 'Outliers' });
    expect(await within(table).findByText('1–2 of 3')).toBeVisible();
    expect(within(table).getByText('Aetna')).toBeVisible();
    expect((await screen.findByText('twice')).tagName).toBe('STRONG');
  });

  it('keeps paging, sorting and parameters in the URL, and sends them to the server', async () => {
    const user = userEvent.setup();
    const { runs } = serve();
    view('/studio/reports/rates?state=CA');
    const table = await screen.findByRole('region', { name: 'Outliers' });
    await within(table).findByText('1–2 of 3');
    expect(runs.find((run) => run.block === 'rows')).toMatchObject({ params: { code: '99213', state: 'CA' } });

    await user.click(within(table).getByRole('button', { name: 'Go to next page' }));
    expect(await within(table).findByText('3–3 of 3')).toBeVisible();
    expect(seen.location).toContain('page.rows=2');
    expect(runs.at(-1)).toMatchObject({ block: 'rows', skip: 2, limit: 2 });

    await user.click(within(table).getByRole('button', { name: 'rate' }));
    await vi.waitFor(() =>
      expect(runs.at(-1)).toMatchObject({ block: 'rows', skip: 0, sort: [{ column: 'rate', direction: 'asc' }] }),
    );
    expect(seen.location).toContain('sort.rows=rate%3Aasc');
    expect(seen.location).not.toContain('page.rows');

    // A new parameter value runs every block again and keeps only what differs from the default.
    await user.click(await screen.findByRole('combobox', { name: 'Billing code' }));
    await user.click(await screen.findByRole('option', { name: '99214' }));
    await vi.waitFor(() =>
      expect(runs.some((run) => run.block === 'median' && run.params.code === '99214')).toBe(true),
    );
    expect(seen.location).toContain('code=99214');
    const state = screen.getByRole('textbox', { name: 'State' });
    await user.clear(state);
    await user.type(state, 'tx{Enter}');
    await vi.waitFor(() => expect(seen.location).toContain('state=tx'));
  });

  it('says so when the report does not exist', async () => {
    server.use(
      http.get('*/api/v1/studio/reports/:slug', () => HttpResponse.json({ detail: 'Not Found' }, { status: 404 })),
    );
    view();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'There is no report here, or it belongs to another tenant.',
    );
  });

  it("offers a select's values from its query, and downloads the table's whole result as CSV", async () => {
    const user = userEvent.setup();
    const queried: ReportPublic = {
      ...REPORT,
      params: [QUERIED_CODE],
      blocks: REPORT.blocks.filter((block) => block.kind === 'table'),
    };
    const exports: unknown[] = [];
    serveApi(async (url, init) => {
      if (url === '/api/v1/studio/reports/rates') return Response.json(queried);
      if (url === `/api/v1/studio/reports/${REPORT.id}/params/code/options`) {
        return Response.json({ data: ['99213', '99214', '70450'], count: 3 });
      }
      if (url === `/api/v1/studio/reports/${REPORT.id}/run`) return Response.json(result(['payer'], [['Aetna']], 1));
      if (url === `/api/v1/studio/reports/${REPORT.id}/export`) {
        exports.push(JSON.parse(init.body as string));
        return new Response('payer\r\nAetna\r\n', {
          headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="rates-rows.csv"' },
        });
      }
      return Response.json({ detail: 'Not Found' }, { status: 404 });
    });
    const saved: string[] = [];
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL = () => 'blob:csv';
        static override revokeObjectURL = () => undefined;
      },
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    view('/studio/reports/rates?code=99214');

    const code = await screen.findByRole('combobox', { name: 'Billing code' });
    expect(code).toHaveValue('99214');
    await user.click(code);
    expect(await screen.findByRole('option', { name: '70450' })).toBeVisible();
    await user.click(screen.getByRole('option', { name: '70450' }));
    await vi.waitFor(() => expect(seen.location).toContain('code=70450'));

    const table = await screen.findByRole('region', { name: 'Outliers' });
    await within(table).findByText('Aetna');
    await user.click(within(table).getByRole('button', { name: 'Download Outliers as CSV' }));
    await vi.waitFor(() => expect(saved).toEqual(['rates-rows.csv']));
    expect(exports).toEqual([{ block: 'rows', params: { code: '70450' } }]);
    click.mockRestore();
  });

  it("loads a queried select's list when the keyboard reaches it, and keeps the focus there", async () => {
    const user = userEvent.setup();
    const queried: ReportPublic = {
      ...REPORT,
      params: [QUERIED_CODE],
      blocks: [],
    };
    serveApi(async (url) => {
      if (url === '/api/v1/studio/reports/rates') return Response.json(queried);
      if (url === `/api/v1/studio/reports/${REPORT.id}/params/code/options`) {
        return Response.json({ data: ['99213', '99214', '70450'], count: 3 });
      }
      return Response.json({ detail: 'Not Found' }, { status: 404 });
    });
    view('/studio/reports/rates');

    await screen.findByRole('combobox', { name: 'Billing code' });
    // Tab from the page's last control before the bar (Copy link) into the field.
    screen.getByRole('button', { name: 'Copy link' }).focus();
    await user.tab();
    await vi.waitFor(() => expect(document.activeElement).toHaveAttribute('aria-expanded', 'true'));
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Billing code' }));
    await user.keyboard('{Control>}a{/Control}7045');
    expect(await screen.findByRole('option', { name: '70450' })).toBeVisible();
    await user.keyboard('{ArrowDown}{Enter}');
    await vi.waitFor(() => expect(seen.location).toContain('code=70450'));
  });
});
