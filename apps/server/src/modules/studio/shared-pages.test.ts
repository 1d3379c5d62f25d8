import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PERMISSIONS, type ReportPublic, type TenantPublic } from '@dataplatform/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../../../test/authz-fixtures.js';
import { createTestContext, createUser, type TestContext, type TestUser } from '../../../test/harness.js';
import { createTenant, tenantHeaders } from '../../../test/tenant-fixtures.js';
import { withFrameAncestors } from './shared-pages.js';

const html = { accept: 'text/html' };
const DEFINITION = `title: Framed
source: demo
blocks:
  - id: total
    kpi:
      sql: SELECT count(*) AS n FROM rates
      value: n
`;

describe('withFrameAncestors', () => {
  it('replaces the policy’s frame-ancestors, and forbids framing when no origin is allowed', () => {
    const csp = "default-src 'self'; frame-ancestors 'none'; img-src 'self' data:";
    expect(withFrameAncestors(csp, ['https://a.example', 'https://b.example:8443'])).toBe(
      "default-src 'self'; img-src 'self' data:; frame-ancestors https://a.example https://b.example:8443",
    );
    expect(withFrameAncestors(csp, [])).toBe("default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
  });
});

describe('the pages a share link or an embed token opens (issue 58)', () => {
  let ctx: TestContext;
  let webDistDir: string;
  let manager: TestUser;
  let tenant: TenantPublic;
  let report: ReportPublic;

  beforeAll(async () => {
    webDistDir = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    writeFileSync(path.join(webDistDir, 'index.html'), '<html>spa shell</html>');
    ctx = await createTestContext({ config: { webDistDir } });
    const admin = await createUser(ctx, { isSuperuser: true });
    manager = await createUser(ctx);
    await createRole(ctx, { grants: [PERMISSIONS.embedManage, PERMISSIONS.reportsWrite], userIds: [manager.id] });
    tenant = await createTenant(ctx, admin, { members: [manager] });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/studio/reports',
      headers: tenantHeaders(manager, tenant.id),
      payload: { definition: DEFINITION },
    });
    expect(created.statusCode, created.body).toBe(201);
    report = created.json<ReportPublic>();
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(webDistDir, { recursive: true, force: true });
  });

  it('keeps a shared report’s page out of search engines and its address out of referrers', async () => {
    const response = await ctx.app.inject({ url: '/s/any-token-at-all', headers: html });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('<html>spa shell</html>');
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(String(response.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    // Other pages keep the usual headers.
    const other = await ctx.app.inject({ url: '/settings', headers: html });
    expect(other.headers['x-robots-tag']).toBeUndefined();
  });

  it('lets only the tenant’s allowed origins frame an embedded report, once it has a secret', async () => {
    const page = () => ctx.app.inject({ url: `/embed/${report.id}?token=x`, headers: html });
    const before = await page();
    expect(before.statusCode).toBe(200);
    expect(String(before.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(before.headers['x-robots-tag']).toBe('noindex, nofollow');

    const headers = tenantHeaders(manager, tenant.id);
    const origins = ['https://app.customer.example', 'http://localhost:5173'];
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v1/studio/embed/settings',
      headers,
      payload: { origins },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // Origins alone allow nothing: without a secret no token can be signed.
    expect(String((await page()).headers['content-security-policy'])).toContain("frame-ancestors 'none'");

    const secret = await ctx.app.inject({ method: 'POST', url: '/api/v1/studio/embed/secret', headers });
    expect(secret.statusCode).toBe(201);
    const after = await page();
    const csp = String(after.headers['content-security-policy']);
    expect(csp).toContain('frame-ancestors https://app.customer.example http://localhost:5173');
    expect(csp.match(/frame-ancestors/g)).toHaveLength(1);
    expect(csp).toContain("default-src 'self'");
    expect(after.headers['x-frame-options']).toBeUndefined();
    expect(after.headers['referrer-policy']).toBe('no-referrer');

    for (const url of ['/embed/not-a-uuid', '/embed/00000000-0000-4000-8000-000000000000', '/embed/%E2%9C%93']) {
      const response = await ctx.app.inject({ url, headers: html });
      expect(response.statusCode, url).toBe(200);
      expect(String(response.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
    }
  });
});
