import { tenantMessages, type TenantPublic } from '@dataplatform/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, detailOf, type TestContext, type TestUser } from '../../../test/harness.js';
import { startTenantDatabases, type TenantDatabase } from '../../../test/tenant-databases.js';

/**
 * Two tenants, each with its own database holding a table only it has. Whatever a member of one
 * asks, with whichever header, never reaches the other's database.
 */
describe('tenant isolation', () => {
  let ctx: TestContext;
  let databases: TenantDatabase[];
  let tenantA: TenantPublic;
  let tenantB: TenantPublic;
  let membersA: TestUser[];
  let memberB: TestUser;
  let admin: TestUser;

  const tablesOf = (user: TestUser, tenantId: string) =>
    ctx.app.inject({
      method: 'GET',
      url: '/api/v1/tenants/current/tables',
      headers: { ...user.headers, 'x-tenant-id': tenantId },
    });

  beforeAll(async () => {
    ctx = await createTestContext({
      config: {
        tenantDatabases: { maxPools: 10, poolSize: 4, idleMs: 60_000, connectTimeoutMs: 5000, allowedHosts: null },
      },
    });
    databases = await startTenantDatabases(2);
    const [dbA, dbB] = databases as [TenantDatabase, TenantDatabase];
    await dbA.exec('CREATE TABLE only_in_a (id int)');
    await dbB.exec('CREATE TABLE only_in_b (id int)');

    admin = await createUser(ctx, { isSuperuser: true });
    membersA = [await createUser(ctx), await createUser(ctx)];
    memberB = await createUser(ctx);
    const create = async (name: string, dburl: string, members: TestUser[]) => {
      const created = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/tenants/',
        headers: admin.headers,
        payload: { name, dburl },
      });
      const tenant = created.json<TenantPublic>();
      await ctx.app.inject({
        method: 'PUT',
        url: `/api/v1/tenants/${tenant.id}/members`,
        headers: admin.headers,
        payload: members.map((m) => m.id),
      });
      return tenant;
    };
    tenantA = await create('Tenant A', dbA.url, membersA);
    tenantB = await create('Tenant B', dbB.url, [memberB]);
  }, 180_000);
  afterAll(async () => {
    await ctx?.close();
    await Promise.all((databases ?? []).map((db) => db.close()));
  });

  it('refuses a member of A who names B, and a member of B who names A, on every route', async () => {
    for (const [user, otherTenant] of [
      [membersA[0]!, tenantB],
      [membersA[1]!, tenantB],
      [memberB, tenantA],
    ] as const) {
      const tables = await tablesOf(user, otherTenant.id);
      expect(tables.statusCode).toBe(403);
      expect(detailOf(tables)).toBe(tenantMessages.notMember);
      expect(tables.body).not.toMatch(/only_in_/);

      const me = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/users/me',
        headers: { ...user.headers, 'x-tenant-id': otherTenant.id },
      });
      expect(me.statusCode).toBe(403);
    }
  });

  it('answers 2000 interleaved requests for A and B each from the right database', { timeout: 300_000 }, async () => {
    const total = 2000;
    const concurrency = 16;
    const expected = { [tenantA.id]: 'only_in_a', [tenantB.id]: 'only_in_b' };
    // Requests alternate tenants; callers rotate among A's members, B's member and a superuser.
    const plan = Array.from({ length: total }, (_, index) => {
      const forA = index % 2 === 0;
      const round = Math.floor(index / 2) % 3;
      const user = round === 2 ? admin : forA ? membersA[round]! : memberB;
      return { user, tenantId: forA ? tenantA.id : tenantB.id };
    });

    const wrong: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) {
          const index = next;
          next += 1;
          const { user, tenantId } = plan[index]!;
          const response = await tablesOf(user, tenantId);
          const names =
            response.statusCode === 200
              ? response.json<{ data: { name: string }[] }>().data.map((t) => t.name)
              : [`status ${response.statusCode}`];
          if (names.length !== 1 || names[0] !== expected[tenantId]) {
            wrong.push(`#${index} for ${tenantId === tenantA.id ? 'A' : 'B'}: ${names.join(',')}`);
          }
        }
      }),
    );
    expect(wrong).toEqual([]);
    expect(next).toBe(total);
    expect(ctx.app.services.tenantPools.openTenantIds().sort()).toEqual([tenantA.id, tenantB.id].sort());
  });
});
