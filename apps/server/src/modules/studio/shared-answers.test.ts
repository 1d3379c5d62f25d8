import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { PERMISSIONS, type ReportLinkCreated, type SharedReport, type TenantPublic } from '@dataplatform/contract';
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
import { GRANT_TTL_MS } from './report-sharing.service.js';

/**
 * A share link's answers made once and kept for its grant's second (public-answers.ts): what a
 * crowd of viewers gets must be what each would have got alone, in the encoding each asks for, and
 * never another link's, parameters', theme's or width's answer.
 */
const clock = createTestClock(new Date());
/** Calls one link may take a minute here. */
const LINK_CALLS = 40;
const { ctx, admin } = useTestContext({
  clock,
  config: { rateLimits: { ...generousRateLimits, shareLinkRequests: { max: LINK_CALLS, windowMs: 60_000 } } },
});

// A cache time: a link of this report has its answers kept (a report without one is answered anew each time).
const DEFINITION = `title: Kept answers
source: demo
cache: 10m
params:
  code: { type: text, default: "99213" }
  state: { type: text, default: "" }
blocks:
  - id: total
    kpi: { sql: "SELECT count(*) AS n FROM rates WHERE billing_code = :code", value: n }
  - id: by_payer
    title: Median rate by payer
    chart:
      sql: SELECT payer, median(negotiated_rate) AS median_rate FROM rates WHERE billing_code = :code AND (:state = '' OR state = :state) GROUP BY payer ORDER BY payer
      spec: { mark: bar, encoding: { x: { field: payer, type: nominal }, y: { field: median_rate, type: quantitative } } }
  - id: note
    text: Shared with care
`;

let tenant: TenantPublic;
let author: TestUser;
let reportId: string;

beforeAll(async () => {
  author = await createUser(ctx);
  await createRole(ctx, { grants: [PERMISSIONS.reportsWrite], userIds: [author.id] });
  tenant = await createTenant(ctx, admin, { members: [author] });
  reportId = (await createReport(ctx, author, tenant.id, DEFINITION)).id;
});

async function makeLink(payload: object = {}): Promise<ReportLinkCreated> {
  const made = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/studio/reports/${reportId}/links`,
    headers: tenantHeaders(author, tenant.id),
    payload,
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.json<ReportLinkCreated>();
}

const shared = (token: string, path = '', acceptEncoding?: string) =>
  ctx.app.inject({
    url: `/api/v1/studio/public/${token}${path}`,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });

/** The author's own drawing of the chart (no link, nothing kept), to compare a link's with. */
const ownChart = (query: string) =>
  ctx.app.inject({
    url: `/api/v1/studio/reports/${reportId}/charts/by_payer.svg${query}`,
    headers: tenantHeaders(author, tenant.id),
  });

describe("a share link's kept answers (issue 58)", () => {
  it('answers every caller the same report and chart, in whichever encoding each accepts, with the same headers', async () => {
    const { token } = await makeLink({ params: { code: '99214' } });
    const plain = await shared(token);
    expect(plain.statusCode, plain.body).toBe(200);
    const report = plain.json<SharedReport>();
    expect(report.first_runs.map((first) => first.request.block)).toEqual(['total', 'by_payer']);
    expect(report.params.find((param) => param.name === 'code')).toMatchObject({ default: '99214', locked: true });
    const gzip = await shared(token, '', 'gzip, deflate');
    const br = await shared(token, '', 'gzip, deflate, br');
    const refused = await shared(token, '', 'gzip;q=0, identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(br.headers['content-encoding']).toBe('br');
    for (const encoded of [gzip, br]) expect(encoded.headers.vary).toContain('accept-encoding');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(refused.body).toBe(plain.body);
    for (const answer of [plain, gzip, br, refused]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
    }

    const own = await ownChart('?width=400&param.code=99214');
    const svg = await shared(token, '/charts/by_payer.svg?width=400');
    const svgGzip = await shared(token, '/charts/by_payer.svg?width=400', 'gzip');
    expect(svg.statusCode, svg.body).toBe(200);
    expect(svg.body).toBe(own.body);
    expect(svgGzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(svgGzip.rawPayload).toString()).toBe(own.body);
    for (const answer of [svg, svgGzip]) {
      expect(answer.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(answer.headers['content-security-policy']).toBe(own.headers['content-security-policy']);
      expect(answer.headers['cache-control']).toBe('no-store');
    }
    // As @fastify/compress would: a PNG is not compressed, whatever the caller accepts.
    const png = await shared(token, '/charts/by_payer.png?width=400', 'gzip, br');
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
  });

  it("never answers one link's, parameters', theme's or width's answer for another", async () => {
    const [first, second] = [
      await makeLink({ params: { code: '99213' } }),
      await makeLink({ params: { code: '70450' } }),
    ];
    // Asked in turn, so that each asks while the other's answers are kept.
    for (let round = 0; round < 2; round += 1) {
      for (const [link, code] of [
        [first, '99213'],
        [second, '70450'],
      ] as const) {
        const report = (await shared(link.token)).json<SharedReport>();
        expect(report.first_runs.every((run) => run.request.params.code === code)).toBe(true);
        for (const query of ['?width=400', '?width=600', '?width=400&theme=dark', '?width=400&param.state=CA']) {
          const drawn = await shared(link.token, `/charts/by_payer.svg${query}`);
          expect(drawn.statusCode, drawn.body).toBe(200);
          expect(drawn.body, `${code} ${query}`).toBe((await ownChart(`${query}&param.code=${code}`)).body);
        }
      }
    }
    const widths = await Promise.all(
      ['?width=400', '?width=600'].map((q) => shared(first.token, `/charts/by_payer.svg${q}`)),
    );
    expect(widths[0]!.body).not.toBe(widths[1]!.body);
  });

  it('answers 410 once a link is revoked (on this instance at once, elsewhere within its grant’s second) or expires', async () => {
    const here = await makeLink();
    const elsewhere = await makeLink();
    const expiring = await makeLink({ expires_at: new Date(clock.now().getTime() + 3_600_000).toISOString() });
    for (const link of [here, elsewhere, expiring]) {
      expect((await shared(link.token)).statusCode).toBe(200);
      expect((await shared(link.token, '/charts/by_payer.svg')).statusCode).toBe(200);
    }
    const gone = async (token: string) => {
      for (const path of ['', '/charts/by_payer.svg']) {
        const answer = await shared(token, path, 'gzip');
        expect(answer.statusCode, path).toBe(410);
        expect(answer.json<{ code: string }>().code).toBe('share_link_gone');
      }
    };
    const revoked = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/studio/links/${here.id}`,
      headers: tenantHeaders(author, tenant.id),
    });
    expect(revoked.statusCode).toBe(204);
    await gone(here.token);
    clock.advance(2 * 3_600_000);
    await gone(expiring.token);
    // Revoked by another instance: this one learns of it when it reads the link again.
    await ctx.database.db.update(reportLinks).set({ revokedAt: clock.now() }).where(eq(reportLinks.id, elsewhere.id));
    await sleep(GRANT_TTL_MS + 100);
    await gone(elsewhere.token);
  });

  it("counts every call against its link's rate limit, kept answers included", async () => {
    const { token } = await makeLink();
    // One after the other: the rate limiter's memory store reports a burst's calls all at its final count.
    const statuses: number[] = [];
    for (let call = 0; call < LINK_CALLS + 5; call += 1) {
      statuses.push((await shared(token, call % 3 === 0 ? '' : '/charts/by_payer.svg', 'gzip')).statusCode);
    }
    expect(statuses).toEqual([...Array<number>(LINK_CALLS).fill(200), ...Array<number>(5).fill(429)]);
  });
});
