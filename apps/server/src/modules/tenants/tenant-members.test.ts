import { tenantMessages, type TenantPublic } from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser, detailOf, type TestUser } from '../../../test/harness.js';
import { useTenantAdmin } from '../../../test/tenant-admin.js';

describe('tenant members and X-Tenant-ID', () => {
  const { ctx, admin, plain, databases, api, createTenant } = useTenantAdmin();

  describe('members', () => {
    it('replaces the member set and reads it back', async () => {
      const tenant = await createTenant();
      const other = await createUser(ctx);
      const url = `/tenants/${tenant.id}/members`;
      expect((await api({ method: 'GET', url, user: admin })).json()).toEqual([]);

      const set = await api({ method: 'PUT', url, user: admin, payload: [plain.id, other.id, plain.id] });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toEqual([plain.id, other.id].sort());
      expect((await api({ method: 'GET', url, user: admin })).json()).toEqual([plain.id, other.id].sort());

      expect((await api({ method: 'PUT', url, user: admin, payload: [other.id] })).json()).toEqual([other.id]);
      expect((await api({ method: 'PUT', url, user: admin, payload: [] })).json()).toEqual([]);
    });

    it('refuses unknown users and malformed ids without changing anything', async () => {
      const tenant = await createTenant();
      const url = `/tenants/${tenant.id}/members`;
      await api({ method: 'PUT', url, user: admin, payload: [plain.id] });

      const unknown = await api({
        method: 'PUT',
        url,
        user: admin,
        payload: [admin.id, '00000000-0000-4000-8000-000000000000'],
      });
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json()).toEqual({
        detail: [{ loc: ['body', 1], msg: tenantMessages.unknownMember, type: 'value_error' }],
        code: 'validation_failed',
      });
      const malformed = await api({ method: 'PUT', url, user: admin, payload: ['nope'] });
      expect(malformed.statusCode).toBe(422);
      expect(detailOf(malformed)).toBe('Invalid user id');
      expect((await api({ method: 'GET', url, user: admin })).json()).toEqual([plain.id]);

      const missingTenant = await api({
        method: 'PUT',
        url: '/tenants/00000000-0000-4000-8000-000000000000/members',
        user: admin,
        payload: [],
      });
      expect(missingTenant.statusCode).toBe(404);
      expect(detailOf(missingTenant)).toBe(tenantMessages.notFound);
    });

    it("lists the caller's active tenants for the switcher; a superuser sees every active one", async () => {
      const member = await createUser(ctx);
      const active = await createTenant();
      const inactive = await createTenant({ status: 'inactive' });
      await createTenant();
      for (const tenant of [active, inactive]) {
        await api({ method: 'PUT', url: `/tenants/${tenant.id}/members`, user: admin, payload: [member.id] });
      }
      const mine = await api({ method: 'GET', url: '/users/me/tenants', user: member });
      expect(mine.statusCode).toBe(200);
      expect(mine.json()).toEqual({
        data: [{ id: active.id, name: active.name, description: null, status: 'active' }],
        count: 1,
      });

      const outsider = await createUser(ctx);
      expect((await api({ method: 'GET', url: '/users/me/tenants', user: outsider })).json()).toEqual({
        data: [],
        count: 0,
      });

      const everything = (await api({ method: 'GET', url: '/users/me/tenants?limit=1000', user: admin })).json<{
        data: { id: string; status: string }[];
      }>();
      expect(everything.data.map((t) => t.id)).toContain(active.id);
      expect(everything.data.map((t) => t.id)).not.toContain(inactive.id);
      expect(everything.data.every((t) => t.status === 'active')).toBe(true);

      expect((await api({ method: 'GET', url: '/users/me/tenants' })).statusCode).toBe(401);
    });
  });

  describe('X-Tenant-ID', () => {
    let member: TestUser;
    let outsider: TestUser;
    let withDatabase: TenantPublic;
    let inactive: TenantPublic;

    beforeAll(async () => {
      member = await createUser(ctx);
      outsider = await createUser(ctx);
      withDatabase = await createTenant({ dburl: databases.a.url });
      inactive = await createTenant({ dburl: databases.a.url, status: 'inactive' });
      for (const tenant of [withDatabase, inactive]) {
        await api({ method: 'PUT', url: `/tenants/${tenant.id}/members`, user: admin, payload: [member.id] });
      }
    });

    const tables = (user: TestUser | undefined, tenant?: string) =>
      api({
        method: 'GET',
        url: '/tenants/current/tables',
        ...(user ? { user } : {}),
        ...(tenant !== undefined ? { tenant } : {}),
      });

    it('lets a member read the tenant database', async () => {
      const response = await tables(member, withDatabase.id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: [{ schema: 'public', name: 'a_orders', type: 'table' }], count: 1 });
    });

    it('means no tenant when absent or empty', async () => {
      for (const header of [undefined, '', '   ']) {
        const response = await tables(member, header);
        expect(response.statusCode).toBe(400);
        expect(detailOf(response)).toBe(tenantMessages.noTenantSelected);
      }
    });

    it('answers 404 "Tenant not found" for an unknown or malformed id, on any route', async () => {
      for (const header of ['00000000-0000-4000-8000-000000000000', 'acme']) {
        const response = await tables(member, header);
        expect(response.statusCode).toBe(404);
        expect(detailOf(response)).toBe(tenantMessages.notFound);
        const me = await api({ method: 'GET', url: '/users/me', user: member, tenant: header });
        expect(me.statusCode).toBe(404);
        expect(detailOf(me)).toBe(tenantMessages.notFound);
      }
    });

    it('answers 403 "Tenant is inactive" for an inactive tenant', async () => {
      const response = await tables(member, inactive.id);
      expect(response.statusCode).toBe(403);
      expect(detailOf(response)).toBe(tenantMessages.inactive);
    });

    it('answers 403 to a user who is not a member; a superuser may use any tenant', async () => {
      const denied = await tables(outsider, withDatabase.id);
      expect(denied.statusCode).toBe(403);
      expect(detailOf(denied)).toBe(tenantMessages.notMember);
      expect((await tables(admin, withDatabase.id)).statusCode).toBe(200);
    });

    it('is ignored for anonymous callers of public routes, so a stale tenant never blocks login', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/login/access-token',
        payload: new URLSearchParams({ username: member.email, password: member.password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-tenant-id': 'deleted-tenant' },
      });
      expect(response.statusCode).toBe(200);
      expect((await tables(undefined, withDatabase.id)).statusCode).toBe(401);
    });

    it('answers 409 for a tenant without a database and 503 when its database is unreachable', async () => {
      const bare = await createTenant();
      const down = await createTenant({ dburl: databases.unreachableUrl });
      const noDatabase = await tables(admin, bare.id);
      expect(noDatabase.statusCode).toBe(409);
      expect(detailOf(noDatabase)).toBe(tenantMessages.noDatabase);
      const unavailable = await tables(admin, down.id);
      expect(unavailable.statusCode).toBe(503);
      expect(detailOf(unavailable)).toBe(tenantMessages.databaseUnavailable);
    });
  });
});
