import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../../../test/authz-fixtures.js';
import { createTestContext, createUser, type TestContext, type TestUser } from '../../../test/harness.js';

/**
 * Tenant-scoped downloads: with `X-Tenant-ID` the file comes from FILES_DIR/tenants/{id}/ only, so a
 * user of tenant A can never receive tenant B's file, even holding the same download role.
 */
describe('tenant-scoped downloads', () => {
  let ctx: TestContext;
  let workDir: string;
  let admin: TestUser;
  let memberOfA: TestUser;
  let memberOfB: TestUser;
  let tenantA: string;
  let tenantB: string;
  let tenantWithoutFiles: string;

  async function createTenant(name: string, members: string[]): Promise<string> {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/tenants/',
      headers: admin.headers,
      payload: { name, description: `${name} tenant`, status: 'active', dburl: null },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: string }>().id;
    const membership = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/tenants/${id}/members`,
      headers: admin.headers,
      payload: members,
    });
    expect(membership.statusCode, membership.body).toBe(200);
    return id;
  }

  function download(caller: TestUser, tenantId: string | undefined) {
    return ctx.app.inject({
      method: 'GET',
      url: '/api/v1/files/download/report',
      headers: { ...caller.headers, ...(tenantId === undefined ? {} : { 'x-tenant-id': tenantId }) },
    });
  }

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(tmpdir(), 'dp-tenant-files-'));
    ctx = await createTestContext({ env: { FILES_DIR: workDir } });
    admin = await createUser(ctx, { isSuperuser: true });
    memberOfA = await createUser(ctx);
    memberOfB = await createUser(ctx);
    await createRole(ctx, { name: 'download_report', userIds: [memberOfA.id, memberOfB.id] });
    tenantA = await createTenant('Acme', [memberOfA.id]);
    tenantB = await createTenant('Globex', [memberOfB.id]);
    tenantWithoutFiles = await createTenant('Initech', [memberOfA.id]);

    writeFileSync(path.join(workDir, 'report.csv'), 'global data\n');
    for (const [id, content] of [
      [tenantA, 'acme data\n'],
      [tenantB, 'globex data\n'],
    ] as const) {
      mkdirSync(path.join(workDir, 'tenants', id), { recursive: true });
      writeFileSync(path.join(workDir, 'tenants', id, 'report.csv'), content);
    }
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it("serves the selected tenant's own file, and the global one without a tenant", async () => {
    expect((await download(memberOfA, tenantA)).body).toBe('acme data\n');
    expect((await download(memberOfB, tenantB)).body).toBe('globex data\n');
    expect((await download(memberOfA, undefined)).body).toBe('global data\n');
    expect((await download(memberOfA, '')).body).toBe('global data\n');
    expect((await download(admin, tenantB)).body).toBe('globex data\n');
  });

  it('never gives a member of A the file of B, whatever it sends', async () => {
    const crossing = await download(memberOfA, tenantB);
    expect(crossing.statusCode).toBe(403);
    expect(crossing.body).not.toContain('globex');
    const back = await download(memberOfB, tenantA);
    expect(back.statusCode).toBe(403);
    expect(back.body).not.toContain('acme');
  });

  it('answers 404 when the tenant has no such file, rather than falling back to the global one', async () => {
    const response = await download(memberOfA, tenantWithoutFiles);
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('global data');
  });

  it('keeps the answers apart under interleaved load', async () => {
    const calls = Array.from({ length: 200 }, (_, index) =>
      index % 2 === 0
        ? download(memberOfA, tenantA).then((r) => r.body === 'acme data\n')
        : download(memberOfB, tenantB).then((r) => r.body === 'globex data\n'),
    );
    expect((await Promise.all(calls)).every(Boolean)).toBe(true);
  });
});
