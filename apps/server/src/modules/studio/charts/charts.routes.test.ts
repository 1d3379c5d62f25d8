import { PERMISSIONS, type ReportLinkCreated, type ReportPublic, type TenantPublic } from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../../../../test/authz-fixtures.js';
import { createUser, useTestContext, type TestUser } from '../../../../test/harness.js';
import { codeReportDefinition, createReport } from '../../../../test/studio-fixtures.js';
import { createTenant, tenantHeaders } from '../../../../test/tenant-fixtures.js';

/** Issue 59: `GET …/charts/{block}.svg|png` of a report, and of a share link, with the runs' visibility. */
const { ctx, admin } = useTestContext();

let tenant: TenantPublic;
let author: TestUser;
let named: TestUser;
let outsider: TestUser;
let report: ReportPublic;

const DEFINITION = codeReportDefinition(
  'Rates by payer',
  `  - id: by_payer
    title: Median rate by payer
    chart:
      # Ordered: rows in the engine's own order may come in another order on each run, and so would the marks.
      sql: SELECT payer, median(negotiated_rate) AS median_rate FROM rates WHERE billing_code = :code GROUP BY payer ORDER BY payer
      spec: { mark: bar, encoding: { x: { field: payer, type: nominal }, y: { field: median_rate, type: quantitative } } }
`,
);

const as = (user: TestUser) => tenantHeaders(user, tenant.id);
const chart = (query = '', user: TestUser = author, file = 'by_payer.svg') =>
  ctx.app.inject({ url: `/api/v1/studio/reports/${report.id}/charts/${file}${query}`, headers: as(user) });

beforeAll(async () => {
  author = await createUser(ctx);
  named = await createUser(ctx);
  outsider = await createUser(ctx);
  await createRole(ctx, { grants: [PERMISSIONS.reportsWrite], userIds: [author.id] });
  tenant = await createTenant(ctx, admin, { members: [author, named, outsider] });
  report = await createReport(ctx, author, tenant.id, DEFINITION);
});

describe('a chart drawn by the server (issue 59)', () => {
  it('answers SVG safe to inline and PNG, in either theme, for a parameter given in the query', async () => {
    const svg = await chart('?width=400');
    expect(svg.statusCode, svg.body).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(svg.headers['content-security-policy']).toContain("default-src 'none'");
    expect(svg.body).toMatch(/^<svg[^>]+width="400"/);
    expect(svg.body).not.toMatch(/<script|href=/);
    const dark = await chart('?width=400&theme=dark');
    expect(dark.body).toContain('rgba(255, 255, 255, 0.7)');
    expect(dark.body).not.toBe(svg.body);
    const other = await chart('?width=400&param.code=99214');
    expect(other.statusCode, other.body).toBe(200);
    expect(other.body).not.toBe(svg.body);

    const png = await chart('?width=300', author, 'by_payer.png');
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect(png.rawPayload.readUInt32BE(16)).toBe(600);
  });

  it('answers bad input with a 4xx in the product shape', async () => {
    const problems = [
      await chart('?theme=sepia'),
      await chart('?width=5'),
      await chart('?width=wide'),
      await chart('?color=red'),
      await chart('?param.nope=1'),
    ];
    for (const response of problems) {
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({ code: 'validation_failed' });
    }
    expect(problems[4]!.json<{ detail: { loc: string[] }[] }>().detail[0]!.loc).toEqual(['query', 'param.nope']);
    for (const file of ['total.svg', 'nope.png']) {
      const response = await chart('', author, file);
      expect(response.statusCode, file).toBe(404);
      expect(response.json()).toEqual({ detail: 'The report has no chart block with this id', code: 'not_found' });
    }
    expect((await chart('', author, 'by_payer.gif')).statusCode).toBe(404);
  });

  it('is a 404 to a member outside a restricted report, as its runs are, and drawn for those it names', async () => {
    const set = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/studio/reports/${report.id}/visibility`,
      headers: as(author),
      payload: { visibility: 'restricted', user_ids: [named.id], role_ids: [] },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await chart('', named)).statusCode).toBe(200);
    const outside = await chart('', outsider, 'by_payer.png');
    expect(outside.statusCode).toBe(404);
    expect(outside.json()).toMatchObject({ code: 'report_not_found' });
    const anonymous = await ctx.app.inject({ url: `/api/v1/studio/reports/${report.id}/charts/by_payer.svg` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('draws a shared report’s chart for the link’s holder, its fixed values forced', async () => {
    const made = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${report.id}/links`,
      headers: as(author),
      payload: { params: { code: '99214' } },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { token } = made.json<ReportLinkCreated>();
    const shared = await ctx.app.inject({ url: `/api/v1/studio/public/${token}/charts/by_payer.svg?width=400` });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.headers['cache-control']).toBe('no-store');
    const own = await chart('?width=400&param.code=99214', named);
    expect(shared.body).toBe(own.body);
    const png = await ctx.app.inject({ url: `/api/v1/studio/public/${token}/charts/by_payer.png?theme=dark` });
    expect(png.statusCode).toBe(200);
    const locked = await ctx.app.inject({ url: `/api/v1/studio/public/${token}/charts/by_payer.svg?param.code=1` });
    expect(locked.statusCode).toBe(403);
    expect((await ctx.app.inject({ url: '/api/v1/studio/public/nope/charts/by_payer.svg' })).statusCode).toBe(404);
  });
});
