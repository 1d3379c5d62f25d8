import {
  PERMISSIONS,
  type AuditEntries,
  type EmbedSecret,
  type EmbedSettings,
  type ReportPublic,
  type SharedReport,
  type TenantPublic,
} from '@dataplatform/contract';
import { createSigner } from 'fast-jwt';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../../../test/authz-fixtures.js';
import { createUser, useTestContext, type TestUser } from '../../../test/harness.js';
import { codeReportDefinition, createReport } from '../../../test/studio-fixtures.js';
import { createTenant, tenantHeaders } from '../../../test/tenant-fixtures.js';

const { ctx, admin } = useTestContext();

let tenant: TenantPublic;
let manager: TestUser;
let member: TestUser;
let report: ReportPublic;
let other: ReportPublic;
let secret: string;

/** The blocks after the KPI: rates counted by payer, charted. */
const BY_PAYER_CHART = `  - id: by_payer
    chart:
      sql: SELECT payer, count(*) AS n FROM rates WHERE billing_code = :code GROUP BY payer
      spec: { mark: bar, encoding: { x: { field: payer, type: nominal }, y: { field: n, type: quantitative } } }
`;

const now = () => Math.floor(Date.now() / 1000);
function sign(claims: Record<string, unknown>, key = secret) {
  return createSigner({ key, algorithm: 'HS256' })(claims);
}
const view = (token: string, reportId = report.id, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/studio/embed/report',
    headers,
    payload: { report_id: reportId, token },
  });
const run = (token: string, params: object = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/studio/embed/run',
    payload: { report_id: report.id, token, block: 'total', params },
  });

beforeAll(async () => {
  manager = await createUser(ctx);
  member = await createUser(ctx);
  await createRole(ctx, { grants: [PERMISSIONS.embedManage, PERMISSIONS.reportsWrite], userIds: [manager.id] });
  tenant = await createTenant(ctx, admin, { members: [manager, member] });
  const make = (title: string) => createReport(ctx, manager, tenant.id, codeReportDefinition(title, BY_PAYER_CHART));
  report = await make('Embedded');
  other = await make('Another');
});

describe('embedding (issue 58)', () => {
  it('lets a holder of embed:manage set the allowed origins and get a secret shown once, audited', async () => {
    const denied = await ctx.app.inject({
      url: '/api/v1/studio/embed/settings',
      headers: tenantHeaders(member, tenant.id),
    });
    expect(denied.statusCode).toBe(403);
    const invalid = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v1/studio/embed/settings',
      headers: tenantHeaders(manager, tenant.id),
      payload: { origins: ['https://ok.example.com', 'javascript:alert(1)', 'https://x.example.com/path'] },
    });
    expect(invalid.statusCode).toBe(422);
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v1/studio/embed/settings',
      headers: tenantHeaders(manager, tenant.id),
      payload: { origins: ['https://customer.example.com/', 'http://localhost:3000'] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<EmbedSettings>()).toEqual({
      origins: ['https://customer.example.com', 'http://localhost:3000'],
      secret_set: false,
      secret_created_at: null,
    });
    const made = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/studio/embed/secret',
      headers: tenantHeaders(manager, tenant.id),
    });
    expect(made.statusCode).toBe(201);
    secret = made.json<EmbedSecret>().secret;
    const read = await ctx.app.inject({
      url: '/api/v1/studio/embed/settings',
      headers: tenantHeaders(manager, tenant.id),
    });
    expect(read.json<EmbedSettings>().secret_set).toBe(true);
    expect(read.body).not.toContain(secret);
    const audit = await ctx.app.inject({
      url: `/api/v1/audit/?target_type=tenant&target_id=${tenant.id}`,
      headers: admin.headers,
    });
    expect(audit.json<AuditEntries>().data.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['embed.settings.update', 'embed.secret.rotate']),
    );
    expect(audit.body).not.toContain(secret);
  });

  it('shows the signed report with its locked values forced, and refuses to let a viewer change them', async () => {
    const token = sign({ report: report.id, params: { code: '99214' }, exp: now() + 600 });
    const shown = await view(token, report.id, { origin: 'https://customer.example.com' });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json<SharedReport>().params).toEqual([
      expect.objectContaining({ name: 'code', default: '99214', locked: true }),
    ]);
    expect(shown.body).not.toContain('SELECT');
    const embedded = await run(token);
    expect(embedded.statusCode, embedded.body).toBe(200);
    const direct = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${report.id}/run`,
      headers: tenantHeaders(member, tenant.id),
      payload: { block: 'total', params: { code: '99214' } },
    });
    expect(embedded.json<{ rows: unknown[][] }>().rows).toEqual(direct.json<{ rows: unknown[][] }>().rows);
    // The report came with its blocks' first runs, the locked value forced in them too.
    const firstRuns = shown.json<SharedReport>().first_runs;
    expect(firstRuns.map((first) => first.request)).toEqual([
      { block: 'total', params: { code: '99214' }, skip: 0 },
      { block: 'by_payer', params: { code: '99214' }, skip: 0 },
    ]);
    expect(firstRuns[0]!.result.rows).toEqual(direct.json<{ rows: unknown[][] }>().rows);
    expect((await run(token, { code: '99214' })).statusCode).toBe(200);
    const overridden = await run(token, { code: '99213' });
    expect(overridden.statusCode).toBe(403);
  });

  it('draws the embedded report’s charts as the server draws them, its locked values forced (issue 59)', async () => {
    const token = sign({ report: report.id, params: { code: '99214' }, exp: now() + 600 });
    const chart = (format: 'svg' | 'png', payload: object) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/studio/embed/charts/by_payer.${format}`,
        headers: { origin: 'https://customer.example.com' },
        payload: { report_id: report.id, token, width: 400, ...payload },
      });
    const svg = await chart('svg', {});
    expect(svg.statusCode, svg.body).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(svg.headers['cache-control']).toBe('no-store');
    const own = await ctx.app.inject({
      url: `/api/v1/studio/reports/${report.id}/charts/by_payer.svg?width=400&param.code=99214`,
      headers: tenantHeaders(member, tenant.id),
    });
    expect(svg.body).toBe(own.body);
    const png = await chart('png', { theme: 'dark' });
    expect(png.statusCode).toBe(200);
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect((await chart('svg', { params: { code: '99213' } })).statusCode).toBe(403);
    expect((await chart('svg', { width: 'wide' })).statusCode).toBe(422);
    const forged = await chart('svg', { token: sign({ report: report.id, exp: now() + 600 }, 'not-the-secret') });
    expect(forged.statusCode).toBe(403);
  });

  it('refuses a forged, expired, too long-lived or other-report token, and a site off the allow-list', async () => {
    const cases: [string, string, string, Record<string, string>?][] = [
      ['forged', sign({ report: report.id, exp: now() + 600 }, 'not-the-secret'), 'not valid'],
      // An hour ago: the test server's clock may stand still from its start, seconds behind this one.
      ['expired', sign({ report: report.id, exp: now() - 3600 }), 'expired'],
      ['without an expiry', sign({ report: report.id }), 'not valid'],
      ['for two days', sign({ report: report.id, exp: now() + 2 * 86_400 }), 'at most 24 hours'],
      ['for another report', sign({ report: other.id, exp: now() + 600 }), 'another report'],
      ['not a token', 'abc.def', 'not valid'],
      [
        'from another site',
        sign({ report: report.id, exp: now() + 600 }),
        'may not embed',
        { origin: 'https://evil.example.net' },
      ],
    ];
    for (const [what, token, why, headers] of cases) {
      const response = await view(token, report.id, headers);
      expect(response.statusCode, what).toBe(403);
      expect(response.json<{ detail: string; code: string }>(), what).toMatchObject({ code: 'permission_denied' });
      expect(response.json<{ detail: string }>().detail, what).toContain(why);
    }
  });

  it('stops every token signed with a secret once it is rotated', async () => {
    const token = sign({ report: report.id, exp: now() + 600 });
    expect((await view(token)).statusCode).toBe(200);
    const rotated = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/studio/embed/secret',
      headers: tenantHeaders(manager, tenant.id),
    });
    const next = rotated.json<EmbedSecret>().secret;
    expect(next).not.toBe(secret);
    expect((await view(token)).statusCode).toBe(403);
    expect((await view(sign({ report: report.id, exp: now() + 600 }, next))).statusCode).toBe(200);
  });
});
