import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ReportPublic, ReportRunResult } from '@dataplatform/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, type TestContext, type TestUser } from '../../../test/harness.js';
import { BUILT_IN_REPORTS } from './built-in-reports.js';

/** Runs on the real engine over a small demo data set (STUDIO-REPORT-7, STUDIO-REPORT-8). */
let ctx: TestContext;
let dir: string;
let user: TestUser;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'studio-reports-'));
  ctx = await createTestContext({ env: { DATA_DIR: dir, STUDIO_DEMO_ROWS: '2000', STUDIO_EXPORT_MAX_ROWS: '500' } });
  user = await createUser(ctx);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await rm(dir, { recursive: true, force: true });
});

function run(slug: string, body: object, who = user) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v1/studio/reports/${slug}/run`,
    headers: who.headers,
    payload: body,
  });
}

describe('running the built-in reports on the demo source', () => {
  it('every query block of every built-in runs with its defaults; tables page with an exact count', async () => {
    for (const builtIn of BUILT_IN_REPORTS) {
      const report = (
        await ctx.app.inject({ method: 'GET', url: `/api/v1/studio/reports/${builtIn.slug}`, headers: user.headers })
      ).json<ReportPublic>();
      for (const block of report.blocks.filter((candidate) => candidate.kind !== 'text')) {
        const response = await run(builtIn.slug, { block: block.id });
        expect(response.statusCode, `${builtIn.slug}.${block.id}: ${response.body}`).toBe(200);
        const result = response.json<ReportRunResult>();
        expect(result.rows.length, `${builtIn.slug}.${block.id}`).toBeGreaterThan(0);
        if (block.kind === 'kpi') {
          expect(result.columns.map((column) => column.name)).toContain(block.kpi!.value);
        }
        if (block.kind === 'table') {
          expect(result.rows.length).toBeLessThanOrEqual(block.table!.page_size);
          expect(result.count).toBeGreaterThanOrEqual(result.rows.length);
        }
      }
    }
  }, 120_000);

  it('answers a page past the end with no rows and the same count, and serves a repeated run from the cache', async () => {
    const first = (await run('payer', { block: 'outliers', limit: 5 })).json<ReportRunResult>();
    expect(first.rows).toHaveLength(Math.min(5, first.count));
    const past = (await run('payer', { block: 'outliers', skip: first.count + 10, limit: 5 })).json<ReportRunResult>();
    expect(past).toMatchObject({ rows: [], count: first.count });
    await run('payer', { block: 'rate_count' });
    const again = (await run('payer', { block: 'rate_count' })).json<ReportRunResult>();
    expect(again.cached).toBe(true);
  });

  it('refuses a sort by a column the result does not have with a 422 in the product shape', async () => {
    const response = await run('payer', { block: 'outliers', sort: [{ column: 'password', direction: 'asc' }] });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toEqual({ detail: 'The result has no column password to sort by.', code: 'query_refused' });
  });

  it('binds a parameter that holds SQL as a value: it matches nothing and runs nothing', async () => {
    const response = await run('payer', { block: 'rate_count', params: { state: "' OR 1=1 --" } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<ReportRunResult>().rows).toEqual([[0]]);
  });

  it('previews an unsaved definition for a writer', async () => {
    const admin = await createUser(ctx, { isSuperuser: true });
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/studio/preview',
      headers: admin.headers,
      payload: {
        definition:
          'title: P\nsource: demo\nparams:\n  code: { type: text, default: "99213" }\nblocks:\n  - id: n\n    kpi: { sql: "SELECT count(*) AS n FROM rates WHERE billing_code = :code", value: n }\n',
        block: 'n',
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<ReportRunResult>()).toMatchObject({ columns: [{ name: 'n' }], cached: false });
  });
});

/** The rows of a CSV text (no quoted line breaks in these results). */
function csvRows(text: string): string[][] {
  return text
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

describe('downloading a table as CSV and the options of a select parameter (STUDIO-VIEW-4, STUDIO-VIEW-5)', () => {
  function exportCsv(slug: string, body: object) {
    return ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${slug}/export`,
      headers: user.headers,
      payload: body,
    });
  }

  it('streams every row of a table block in the order asked, with a header line, as an attachment', async () => {
    const params = { code: '99213' };
    const sort = [{ column: 'negotiated_rate', direction: 'desc' }];
    const page = (await run('payer', { block: 'outliers', params, sort, limit: 3 })).json<ReportRunResult>();
    const response = await exportCsv('payer', { block: 'outliers', params, sort });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="payer-outliers.csv"');
    expect(response.headers['x-total-count']).toBe(String(page.count));
    const [header, ...rows] = csvRows(response.body);
    expect(header).toEqual(page.columns.map((column) => column.name));
    expect(rows).toHaveLength(page.count);
    expect(rows.slice(0, 3)).toEqual(
      page.rows.map((row) => row.map((value) => (value === null ? '' : String(value as string | number)))),
    );
  });

  it('refuses a block that is not a table, a result over the download cap, and a bad parameter, before any row', async () => {
    const kpi = await exportCsv('payer', { block: 'rate_count' });
    expect(kpi.statusCode).toBe(422);
    expect(kpi.json()).toMatchObject({
      code: 'validation_failed',
      detail: [{ loc: ['body', 'block'], msg: 'Only a table block can be downloaded' }],
    });
    const admin = await createUser(ctx, { isSuperuser: true });
    const tenant = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/tenants/',
        headers: admin.headers,
        payload: { name: 'Export cap' },
      })
    ).json<{ id: string }>();
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/studio/reports',
      headers: { ...admin.headers, 'x-tenant-id': tenant.id },
      payload: {
        definition: 'title: All rates\nsource: demo\nblocks:\n  - id: t\n    table: { sql: "SELECT * FROM rates" }\n',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const tooMany = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${created.json<ReportPublic>().id}/export`,
      headers: { ...admin.headers, 'x-tenant-id': tenant.id },
      payload: { block: 't' },
    });
    expect(tooMany.statusCode, tooMany.body).toBe(422);
    const refusal = tooMany.json<{ detail: string; code: string }>();
    expect(refusal.code).toBe('result_too_large');
    expect(refusal.detail).toMatch(/^The result has \d+ rows; a download holds at most 500: filter it first\.$/);
    const badParam = await exportCsv('payer', { block: 'outliers', params: { nope: 1 } });
    expect(badParam.statusCode).toBe(422);
    expect(badParam.json()).toMatchObject({ code: 'validation_failed', detail: [{ loc: ['body', 'params', 'nope'] }] });
    const badSort = await exportCsv('payer', { block: 'outliers', sort: [{ column: 'password', direction: 'asc' }] });
    expect(badSort.statusCode).toBe(422);
    expect(badSort.json()).toEqual({ detail: 'The result has no column password to sort by.', code: 'query_refused' });
  });

  it("lists a select parameter's values from its query, and 404s a parameter without one", async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/studio/reports/payer/params/code/options',
      headers: user.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const options = response.json<{ data: (string | number)[]; count: number }>();
    expect(options.count).toBe(options.data.length);
    expect(options.data).toContain('99213');
    expect([...options.data].sort()).toEqual(options.data);
    for (const [param, detail] of [
      ['state', 'This parameter’s values are listed in the report, not queried'],
      ['nope', 'The report has no parameter with this name'],
    ] as const) {
      const missing = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/studio/reports/payer/params/${param}/options`,
        headers: user.headers,
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ detail, code: 'not_found' });
    }
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/v1/studio/reports/payer/params/code/options' });
    expect(anonymous.statusCode).toBe(401);
  });
});
