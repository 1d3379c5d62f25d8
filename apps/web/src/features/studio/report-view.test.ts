import type { ReportBlockPublic, ReportPublic } from '@dataplatform/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveApi } from '../../test/api-server.js';
import { getQueryClient } from '../../lib/query-client.js';
import { blockRunRequest, blockState, nextSort, prefetchReportView } from './report-view.js';

const TABLE: ReportBlockPublic = {
  id: 'rows',
  kind: 'table',
  title: 'Rows',
  table: { sql: 'SELECT 1', page_size: 25 },
};
const KPI: ReportBlockPublic = { id: 'n', kind: 'kpi', title: 'Count', kpi: { sql: 'SELECT 1', value: 'n' } };

describe('a block run request read from the URL', () => {
  it('asks a table for the page and sort the URL holds', () => {
    const search = new URLSearchParams('page.rows=3&sort.rows=rate:desc');
    expect(blockRunRequest(TABLE, { code: '99213' }, search)).toEqual({
      block: 'rows',
      params: { code: '99213' },
      skip: 50,
      limit: 25,
      sort: [{ column: 'rate', direction: 'desc' }],
    });
  });

  it('asks a KPI for all its rows, whatever page the URL names', () => {
    expect(blockRunRequest(KPI, {}, new URLSearchParams('page.n=4'))).toEqual({ block: 'n', params: {}, skip: 0 });
  });
});

describe('the sort after a press on a column header', () => {
  it('sorts a new column ascending, then turns it the other way, then back', () => {
    const first = nextSort(undefined, 'rate');
    expect(first).toEqual({ column: 'rate', direction: 'asc' });
    const second = nextSort(first, 'rate');
    expect(second).toEqual({ column: 'rate', direction: 'desc' });
    expect(nextSort(second, 'rate')).toEqual({ column: 'rate', direction: 'asc' });
    expect(nextSort(second, 'payer')).toEqual({ column: 'payer', direction: 'asc' });
  });
});

describe("a block's state from its query", () => {
  const query = { isPending: false, isError: false, error: null, refetch: vi.fn() };

  it('is loading, ready or empty as the query and its rows say', () => {
    expect(blockState({ ...query, isPending: true }, false)).toEqual({ status: 'loading' });
    expect(blockState(query, false)).toEqual({ status: 'ready' });
    expect(blockState(query, true)).toEqual({ status: 'empty' });
  });

  it('carries the error and a retry that runs the query again', () => {
    const error = new Error('timed out');
    const state = blockState({ ...query, isError: true, error }, false);
    expect(state).toMatchObject({ status: 'error', error });
    if (state.status === 'error') state.retry();
    expect(query.refetch).toHaveBeenCalledTimes(1);
  });
});

describe("a route loader's prefetch of a report", () => {
  afterEach(() => getQueryClient().clear());

  it('starts the first four block runs only, so the viewer keeps connections for its own code', async () => {
    const blocks: ReportBlockPublic[] = [
      { id: 'intro', kind: 'text', title: null, text: 'Rates', html: '<p>Rates</p>' },
      ...['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ ...KPI, id })),
    ];
    const report = {
      id: '5d0d1e00-0000-4000-8000-000000000010',
      slug: 'payer',
      version: 1,
      params: [],
      blocks,
    } as unknown as ReportPublic;
    const ran: string[] = [];
    serveApi(async (url, call) => {
      if (url === '/api/v1/studio/reports/payer') return Response.json(report);
      ran.push((JSON.parse(call.body as string) as { block: string }).block);
      // A first run of the demo data is slow: none answers during the test.
      return new Promise<Response>(() => undefined);
    });

    prefetchReportView('payer', new URLSearchParams());

    await vi.waitFor(() => expect(ran).toHaveLength(4));
    // Every query the loader starts is in the cache at once: four runs, and the definition.
    expect(getQueryClient().getQueryCache().getAll()).toHaveLength(5);
    expect(ran.sort()).toEqual(['a', 'b', 'c', 'd']);
  });
});
