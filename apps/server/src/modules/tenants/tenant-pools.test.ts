import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, type TestContext } from '../../../test/harness.js';
import { startTenantDatabases, type TenantDatabase } from '../../../test/tenant-databases.js';
import { useTenantAdmin } from '../../../test/tenant-admin.js';
import { waitUntil } from '../../../test/wait.js';
import { tenantMembers } from '../../db/schema/index.js';

describe('tenant pools', () => {
  const { ctx, admin, plain, databases, api, createTenant } = useTenantAdmin();

  describe('pool lifecycle (at most one pool here)', () => {
    const use = (tenantId: string) =>
      api({ method: 'GET', url: '/tenants/current/tables', user: admin, tenant: tenantId });

    it('opens a pool on first use only, keeps at most the configured number, and closes the least recent', async () => {
      const a = await createTenant({ dburl: databases.a.url });
      const b = await createTenant({ dburl: databases.b.url });
      expect(ctx.app.services.tenantPools.openTenantIds()).not.toContain(a.id);
      await waitUntil(async () => (await databases.a.connectionCount()) === 0);

      expect((await use(a.id)).statusCode).toBe(200);
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([a.id]);
      expect(await databases.a.connectionCount()).toBeGreaterThan(0);

      expect((await use(b.id)).statusCode).toBe(200);
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([b.id]);
      await waitUntil(async () => (await databases.a.connectionCount()) === 0);
      expect(await databases.b.connectionCount()).toBeGreaterThan(0);
    });

    it('closes the pool when the URL changes and reopens with the new one', async () => {
      const tenant = await createTenant({ dburl: databases.a.url });
      expect((await use(tenant.id)).json<{ data: { name: string }[] }>().data[0]?.name).toBe('a_orders');
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([tenant.id]);

      const moved = await api({
        method: 'PUT',
        url: `/tenants/${tenant.id}`,
        user: admin,
        payload: { dburl: databases.b.url },
      });
      expect(moved.statusCode).toBe(200);
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([]);
      await waitUntil(async () => (await databases.a.connectionCount()) === 0);

      const after = await use(tenant.id);
      expect(after.json<{ data: { name: string }[] }>().data.map((t) => t.name)).toEqual(['b_invoices', 'b_totals']);
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([tenant.id]);
    });

    it('closes the pool when the tenant is deactivated', async () => {
      const tenant = await createTenant({ dburl: databases.a.url });
      await use(tenant.id);
      await api({ method: 'PUT', url: `/tenants/${tenant.id}`, user: admin, payload: { status: 'inactive' } });
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([]);
      await waitUntil(async () => (await databases.a.connectionCount()) === 0);
    });

    it('on delete removes memberships and closes the pool, and leaves the database as it was', async () => {
      const tenant = await createTenant({ dburl: databases.a.url });
      await api({ method: 'PUT', url: `/tenants/${tenant.id}/members`, user: admin, payload: [plain.id] });
      await use(tenant.id);
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([tenant.id]);

      const deleted = await api({ method: 'DELETE', url: `/tenants/${tenant.id}`, user: admin });
      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBe('');
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([]);
      await waitUntil(async () => (await databases.a.connectionCount()) === 0);
      expect(await ctx.database.db.select().from(tenantMembers).where(eq(tenantMembers.tenantId, tenant.id))).toEqual(
        [],
      );
      expect((await api({ method: 'GET', url: `/tenants/${tenant.id}`, user: admin })).statusCode).toBe(404);
      expect((await use(tenant.id)).statusCode).toBe(404);

      // The tenant's data is still there: another tenant pointing at the same database reads it.
      const again = await createTenant({ dburl: databases.a.url });
      expect((await use(again.id)).json<{ data: { name: string }[] }>().data[0]?.name).toBe('a_orders');

      const twice = await api({ method: 'DELETE', url: `/tenants/${tenant.id}`, user: admin });
      expect(twice.statusCode).toBe(404);
    });
  });
});

describe('idle tenant pools', () => {
  let ctx: TestContext;
  let db: TenantDatabase;

  beforeAll(async () => {
    ctx = await createTestContext({
      config: {
        tenantDatabases: { maxPools: 5, poolSize: 2, idleMs: 200, connectTimeoutMs: 3000, allowedHosts: null },
      },
    });
    [db] = (await startTenantDatabases(1)) as [TenantDatabase];
  }, 180_000);
  afterAll(async () => {
    await ctx?.close();
    await db?.close();
  });

  it('closes a pool nobody used for the idle time', async () => {
    const admin = await createUser(ctx, { isSuperuser: true });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/tenants/',
      headers: admin.headers,
      payload: { name: 'Idle', dburl: db.url },
    });
    const tenantId = created.json<{ id: string }>().id;
    const used = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/tenants/current/tables',
      headers: { ...admin.headers, 'x-tenant-id': tenantId },
    });
    expect(used.statusCode).toBe(200);
    expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([tenantId]);
    await waitUntil(() => ctx.app.services.tenantPools.openTenantIds().length === 0);
    await waitUntil(async () => (await db.connectionCount()) === 0);
  });
});
