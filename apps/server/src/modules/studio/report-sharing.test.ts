import { randomUUID } from 'node:crypto';
import {
  PERMISSIONS,
  type AuditEntries,
  type ReportAudience,
  type ReportLinkCreated,
  type ReportLinks,
  type ReportPublic,
  type Reports,
  type SharedReport,
  type TenantPublic,
} from '@dataplatform/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../../../test/authz-fixtures.js';
import {
  createTestClock,
  createUser,
  generousRateLimits,
  useTestContext,
  type TestUser,
} from '../../../test/harness.js';
import { createReport } from '../../../test/studio-fixtures.js';
import { createTenant, tenantHeaders } from '../../../test/tenant-fixtures.js';
import { reportLinks } from '../../db/schema/index.js';

const clock = createTestClock(new Date());
/** Links one account may make a minute, here as by default. */
const LINKS_PER_MINUTE = 20;
const { ctx, admin } = useTestContext({
  clock,
  config: {
    rateLimits: { ...generousRateLimits, shareLinksPerAccount: { max: LINKS_PER_MINUTE, windowMs: 60_000 } },
  },
});

let tenant: TenantPublic;
/** An author (reports:write), a member named by the restriction, one holding a named role, one outside. */
let author: TestUser;
let named: TestUser;
let roleHolder: TestUser;
let outsider: TestUser;
let roleId: string;
let report: ReportPublic;

const DEFINITION = `title: Rates by payer
source: demo
params:
  code:
    type: text
    default: "99213"
  state:
    type: text
    default: ""
blocks:
  - id: total
    kpi:
      sql: SELECT count(*) AS n FROM rates WHERE billing_code = :code AND (:state = '' OR state = :state)
      value: n
  - id: by_payer
    table:
      sql: SELECT payer, count(*) AS n FROM rates WHERE billing_code = :code GROUP BY payer
      page_size: 5
`;

const as = (user: TestUser) => tenantHeaders(user, tenant.id);

beforeAll(async () => {
  author = await createUser(ctx);
  named = await createUser(ctx);
  roleHolder = await createUser(ctx);
  outsider = await createUser(ctx);
  await createRole(ctx, { grants: [PERMISSIONS.reportsWrite], userIds: [author.id, outsider.id] });
  roleId = (await createRole(ctx, { userIds: [roleHolder.id] })).id;
  tenant = await createTenant(ctx, admin, { members: [author, named, roleHolder, outsider] });
  report = await createReport(ctx, author, tenant.id, DEFINITION);
});

describe('who sees a report (issue 58)', () => {
  it('restricts a report to named members and roles: anyone else gets 404 on every route, and it leaves their list', async () => {
    const set = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/studio/reports/${report.id}/visibility`,
      headers: as(author),
      payload: { visibility: 'restricted', user_ids: [named.id], role_ids: [roleId] },
    });
    expect(set.statusCode, set.body).toBe(200);
    for (const user of [author, named, roleHolder]) {
      const seen = await ctx.app.inject({ url: `/api/v1/studio/reports/${report.id}`, headers: as(user) });
      expect(seen.statusCode, user.email).toBe(200);
      expect(seen.json<ReportPublic>().visibility).toBe('restricted');
    }
    const outside = [
      ctx.app.inject({ url: `/api/v1/studio/reports/${report.id}`, headers: as(outsider) }),
      ctx.app.inject({ url: `/api/v1/studio/reports/${report.id}/versions`, headers: as(outsider) }),
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/studio/reports/${report.id}/run`,
        headers: as(outsider),
        payload: { block: 'total' },
      }),
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/studio/reports/${report.id}/export`,
        headers: as(outsider),
        payload: { block: 'by_payer' },
      }),
      ctx.app.inject({
        method: 'PUT',
        url: `/api/v1/studio/reports/${report.id}`,
        headers: as(outsider),
        payload: { definition: DEFINITION, version: 1 },
      }),
      ctx.app.inject({ url: `/api/v1/studio/reports/${report.id}/links`, headers: as(outsider) }),
    ];
    for (const response of await Promise.all(outside)) {
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json<{ code: string }>().code).toBe('report_not_found');
    }
    const list = await ctx.app.inject({ url: '/api/v1/studio/reports?limit=100', headers: as(outsider) });
    expect(list.json<Reports>().data.map((item) => item.id)).not.toContain(report.id);
    const listed = await ctx.app.inject({ url: '/api/v1/studio/reports?limit=100', headers: as(named) });
    expect(listed.json<Reports>().data.map((item) => item.id)).toContain(report.id);

    const audit = await ctx.app.inject({
      url: `/api/v1/audit/?target_type=report&target_id=${report.id}`,
      headers: admin.headers,
    });
    expect(audit.json<AuditEntries>().data[0]).toMatchObject({
      action: 'report.visibility',
      after: { visibility: 'restricted', user_ids: [named.id], role_ids: [roleId] },
    });

    const back = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/studio/reports/${report.id}/visibility`,
      headers: as(author),
      payload: { visibility: 'tenant' },
    });
    expect(back.statusCode).toBe(200);
    expect(
      (await ctx.app.inject({ url: `/api/v1/studio/reports/${report.id}`, headers: as(outsider) })).statusCode,
    ).toBe(200);
  });

  it('names only members of the tenant and roles that exist, and keeps nothing of a refused change', async () => {
    const stranger = await createUser(ctx);
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/studio/reports/${report.id}/visibility`,
      headers: as(author),
      payload: { visibility: 'restricted', user_ids: [stranger.id], role_ids: [randomUUID()] },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json<{ detail: { loc: unknown[] }[] }>().detail.map((item) => item.loc)).toEqual([
      ['body', 'user_ids', 0],
      ['body', 'role_ids', 0],
    ]);
    const seen = await ctx.app.inject({ url: `/api/v1/studio/reports/${report.id}`, headers: as(outsider) });
    expect(seen.json<ReportPublic>().visibility).toBe('tenant');
  });
});

describe('share links (issue 58)', () => {
  async function makeLink(payload: object = {}) {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${report.id}/links`,
      headers: as(author),
      payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<ReportLinkCreated>();
  }

  it('shows the report alone to anyone holding the link, without its SQL, with fixed values forced and locked', async () => {
    const link = await makeLink({ params: { code: '99214' } });
    expect(link.url).toBe(`https://app.example.test/s/${link.token}`);
    // 256 random bits, of which only the hash is kept.
    expect(Buffer.from(link.token, 'base64url')).toHaveLength(32);
    const [row] = await ctx.database.db.select().from(reportLinks).where(eq(reportLinks.id, link.id));
    expect(JSON.stringify(row)).not.toContain(link.token);

    const shown = await ctx.app.inject({ url: `/api/v1/studio/public/${link.token}` });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.headers['x-robots-tag']).toContain('noindex');
    expect(shown.headers['referrer-policy']).toBe('no-referrer');
    const shared = shown.json<SharedReport>();
    expect(shared.title).toBe('Rates by payer');
    expect(shown.body).not.toMatch(/SELECT|rates WHERE/);
    expect(shared.params).toEqual([
      expect.objectContaining({ name: 'code', default: '99214', locked: true }),
      expect.objectContaining({ name: 'state', default: '', locked: false }),
    ]);

    const run = (params: object) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/studio/public/${link.token}/run`,
        payload: { block: 'total', params },
      });
    const fixed = await run({});
    expect(fixed.statusCode, fixed.body).toBe(200);
    const direct = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${report.id}/run`,
      headers: as(author),
      payload: { block: 'total', params: { code: '99214' } },
    });
    expect(fixed.json<{ rows: unknown[][] }>().rows).toEqual(direct.json<{ rows: unknown[][] }>().rows);
    // Opening the link ran what its viewer asks for first: each block at the values shown, a table's
    // first page, so the viewer needs no other call.
    expect(shared.first_runs.map((first) => first.request)).toEqual([
      { block: 'total', params: { code: '99214', state: '' }, skip: 0 },
      { block: 'by_payer', params: { code: '99214', state: '' }, skip: 0, limit: 5 },
    ]);
    expect(shared.first_runs[0]!.result.rows).toEqual(direct.json<{ rows: unknown[][] }>().rows);
    expect(shared.first_runs[1]!.result.count).toBe(12);
    expect(shared.first_runs[1]!.result.rows).toHaveLength(5);
    expect((await run({ state: 'CA' })).statusCode).toBe(200);
    const overridden = await run({ code: '99213' });
    expect(overridden.statusCode).toBe(403);
    expect(overridden.json<{ code: string }>().code).toBe('permission_denied');
    const paged = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/public/${link.token}/run`,
      payload: { block: 'by_payer', skip: 5, limit: 5, sort: [{ column: 'n', direction: 'desc' }] },
    });
    expect(paged.statusCode, paged.body).toBe(200);
    expect(paged.json<{ count: number }>().count).toBe(12);
  });

  it('answers 410 once a link is revoked or has expired, 404 for a token it never made, and lists them all', async () => {
    const revoked = await makeLink();
    const expiring = await makeLink({ expires_at: new Date(clock.now().getTime() + 3_600_000).toISOString() });
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/studio/links/${revoked.id}`,
      headers: as(author),
    });
    expect(removed.statusCode).toBe(204);
    expect((await ctx.app.inject({ url: `/api/v1/studio/public/${expiring.token}` })).statusCode).toBe(200);
    clock.advance(2 * 3_600_000);
    for (const token of [revoked.token, expiring.token]) {
      const gone = await ctx.app.inject({ url: `/api/v1/studio/public/${token}` });
      expect(gone.statusCode).toBe(410);
      expect(gone.json<{ code: string }>().code).toBe('share_link_gone');
      const run = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/studio/public/${token}/run`,
        payload: { block: 'total' },
      });
      expect(run.statusCode).toBe(410);
    }
    expect((await ctx.app.inject({ url: `/api/v1/studio/public/${'x'.repeat(43)}` })).statusCode).toBe(404);
    const listed = await ctx.app.inject({ url: `/api/v1/studio/reports/${report.id}/links`, headers: as(author) });
    const links = listed.json<ReportLinks>().data;
    expect(links.find((link) => link.id === revoked.id)).toMatchObject({
      active: false,
      revoked_at: expect.any(String) as unknown,
    });
    expect(links.find((link) => link.id === expiring.id)).toMatchObject({ active: false, revoked_at: null });
    expect(JSON.stringify(links)).not.toContain(revoked.token);
  });

  it('refuses a past expiry, an unknown parameter, a built-in report, and a hundred links in a second, keeping nothing of them', async () => {
    const bad = [{ expires_at: new Date(clock.now().getTime() - 1000).toISOString() }, { params: { invented: 1 } }];
    for (const payload of bad) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/studio/reports/${report.id}/links`,
        headers: as(author),
        payload,
      });
      expect(response.statusCode).toBe(422);
    }
    const builtIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/studio/reports/payer/links',
      headers: as(author),
      payload: {},
    });
    expect(builtIn.statusCode).toBe(403);

    const busy = await createUser(ctx);
    await createRole(ctx, { grants: [PERMISSIONS.reportsWrite], userIds: [busy.id] });
    await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/tenants/${tenant.id}/members`,
      headers: admin.headers,
      payload: [author.id, named.id, roleHolder.id, outsider.id, busy.id],
    });
    const before = (await ctx.database.db.select().from(reportLinks)).length;
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        ctx.app.inject({
          method: 'POST',
          url: `/api/v1/studio/reports/${report.id}/links`,
          headers: as(busy),
          payload: {},
        }),
      ),
    );
    const made = answers.filter((answer) => answer.statusCode === 201).length;
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(made).toBe(LINKS_PER_MINUTE);
    expect(refused).toHaveLength(100 - LINKS_PER_MINUTE);
    expect(refused[0]!.json<{ code: string }>().code).toBe('rate_limited');
    expect((await ctx.database.db.select().from(reportLinks)).length).toBe(before + made);
  });
});

describe('whom an author may name (issue 58)', () => {
  it('lists the tenant’s members and the roles for an author, and nobody of another tenant', async () => {
    const stranger = await createUser(ctx);
    const response = await ctx.app.inject({ url: `/api/v1/studio/reports/${report.id}/audience`, headers: as(author) });
    expect(response.statusCode, response.body).toBe(200);
    const audience = response.json<ReportAudience>();
    const emails = audience.members.map((member) => member.email);
    expect(emails).toEqual(expect.arrayContaining([author.email, named.email, roleHolder.email, outsider.email]));
    expect(emails).not.toContain(stranger.email);
    expect(emails).toEqual([...emails].sort());
    expect(audience.roles.map((role) => role.id)).toContain(roleId);
    expect(audience.members_truncated).toBe(false);

    // A member without reports:write, and a built-in report, get nothing.
    const denied = await ctx.app.inject({ url: `/api/v1/studio/reports/${report.id}/audience`, headers: as(named) });
    expect(denied.statusCode).toBe(403);
    const builtIn = await ctx.app.inject({ url: '/api/v1/studio/reports/payer/audience', headers: as(author) });
    expect(builtIn.statusCode).toBe(403);
    expect(builtIn.json<{ code: string }>().code).toBe('report_read_only');
  });
});
