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
  ctx = await createTestContext({ env: { DATA_DIR: dir, STUDIO_DEMO_ROWS: '2000' } });
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
