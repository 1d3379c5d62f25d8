import { tenantMessages, userMessages, type TenantPublic } from '@dataplatform/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, detailOf, type TestContext, type TestUser } from '../../../test/harness.js';
import { closedPort, startTenantDatabases, type TenantDatabase } from '../../../test/tenant-databases.js';
import { buildApp } from '../../app.js';
import { tenantMembers, tenants } from '../../db/schema/index.js';
import { waitUntil } from '../../../test/wait.js';

function maskedOf(url: string): string {
  const parsed = new URL(url);
  parsed.password = '****';
  return parsed.toString();
}

function passwordOf(url: string): string {
  return decodeURIComponent(new URL(url).password);
}

describe('tenants', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let plain: TestUser;
  let dbA: TenantDatabase;
  let dbB: TenantDatabase;
  let unreachableUrl: string;
  let nameCounter = 0;

  const api = (options: InjectOptions & { url: string; user?: TestUser; tenant?: string }) => {
    const { user, tenant, url, headers, ...rest } = options;
    return ctx.app.inject({
      ...rest,
      url: `/api/v1${url}`,
      headers: {
        ...headers,
        ...(user ? user.headers : {}),
        ...(tenant !== undefined ? { 'x-tenant-id': tenant } : {}),
      },
    });
  };

  async function createTenant(body: Record<string, unknown> = {}): Promise<TenantPublic> {
    nameCounter += 1;
    const response = await api({
      method: 'POST',
      url: '/tenants/',
      user: admin,
      payload: { name: `Tenant ${nameCounter}`, ...body },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<TenantPublic>();
  }

  const checkConnection = (id: string) =>
    api({ method: 'POST', url: `/tenants/${id}/check-connection`, user: admin }).then((r) => {
      expect(r.statusCode, r.body).toBe(200);
      return r.json<{ ok: boolean; detail?: string; latency_ms?: number; server_version?: string }>();
    });

  const storedRow = async (id: string) => {
    const [row] = await ctx.database.db.select().from(tenants).where(eq(tenants.id, id));
    return row!;
  };

  beforeAll(async () => {
    ctx = await createTestContext({
      config: {
        tenantDatabases: { maxPools: 1, poolSize: 2, idleMs: 60_000, connectTimeoutMs: 3000, allowedHosts: null },
      },
    });
    [dbA, dbB] = (await startTenantDatabases(2)) as [TenantDatabase, TenantDatabase];
    await dbA.exec('CREATE TABLE a_orders (id int primary key)');
    await dbB.exec('CREATE TABLE b_invoices (id int primary key); CREATE VIEW b_totals AS SELECT 1 AS total');
    unreachableUrl = `postgresql://app:unreachable-secret@127.0.0.1:${await closedPort()}/app`;
    admin = await createUser(ctx, { isSuperuser: true });
    plain = await createUser(ctx);
  }, 180_000);
  afterAll(async () => {
    await ctx?.close();
    await dbA?.close();
    await dbB?.close();
  });

  describe('create, read, list', () => {
    it('creates an active tenant by default and shows the database URL masked', async () => {
      const response = await api({
        method: 'POST',
        url: '/tenants/',
        user: admin,
        payload: {
          name: '  Acme  ',
          description: 'Acme Inc.',
          dburl: 'postgresql://app:s3cr3t-pw@db.example:5432/acme',
        },
      });
      expect(response.statusCode).toBe(201);
      const tenant = response.json<TenantPublic>();
      expect(tenant).toMatchObject({
        name: 'Acme',
        description: 'Acme Inc.',
        status: 'active',
        dburl: 'postgresql://app:****@db.example:5432/acme',
      });
      expect(response.body).not.toContain('s3cr3t-pw');

      const fetched = await api({ method: 'GET', url: `/tenants/${tenant.id}`, user: admin });
      expect(fetched.statusCode).toBe(200);
      expect(fetched.json()).toEqual(tenant);
    });

    it('stores the URL encrypted: neither the password nor the host is readable in the row', async () => {
      const tenant = await createTenant({ dburl: 'postgresql://app:very-secret-pw@db.internal.example:5432/acme' });
      const row = await storedRow(tenant.id);
      expect(row.dburlSealed).toMatch(/^v1\./);
      expect(row.dburlSealed).not.toContain('very-secret-pw');
      expect(row.dburlSealed).not.toContain('db.internal.example');
      expect(row.dburlMasked).toBe('postgresql://app:****@db.internal.example:5432/acme');
    });

    it('masks a password given as a query parameter too', async () => {
      const tenant = await createTenant({ dburl: 'postgresql://db.example/acme?user=app&password=query-secret' });
      expect(tenant.dburl).toBe('postgresql://db.example/acme?user=app&password=****');
    });

    it('accepts a tenant without a database URL (blank means none)', async () => {
      expect((await createTenant({ dburl: '' })).dburl).toBeNull();
      expect((await createTenant({ dburl: null, description: '' })).description).toBeNull();
    });

    it('refuses invalid fields with the exact messages', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{}, tenantMessages.nameRequired],
        [{ name: '   ' }, tenantMessages.nameRequired],
        [{ name: 'x'.repeat(101) }, tenantMessages.nameTooLong],
        [{ name: 'ok', description: 'd'.repeat(1001) }, tenantMessages.descriptionTooLong],
        [{ name: 'ok', status: 'paused' }, 'Invalid option: expected one of "active"|"inactive"'],
        [{ name: 'ok', dburl: 'mysql://app:pw@db/acme' }, tenantMessages.dburlInvalid],
        [{ name: 'ok', dburl: 'not a url' }, tenantMessages.dburlInvalid],
        [{ name: 'ok', dburl: 'postgresql:///acme' }, tenantMessages.dburlInvalid],
        [{ name: 'ok', dburl: 'postgresql://app:pw@db:99999/acme' }, tenantMessages.dburlInvalid],
        [{ name: 'ok', dburl: `postgresql://db/${'a'.repeat(2050)}` }, tenantMessages.dburlTooLong],
      ];
      for (const [payload, message] of cases) {
        const response = await api({ method: 'POST', url: '/tenants/', user: admin, payload });
        expect(response.statusCode, JSON.stringify(payload)).toBe(422);
        expect(detailOf(response), JSON.stringify(payload)).toBe(message);
      }
    });

    it('refuses a second tenant with the same name', async () => {
      const first = await createTenant();
      const response = await api({ method: 'POST', url: '/tenants/', user: admin, payload: { name: first.name } });
      expect(response.statusCode).toBe(409);
      expect(detailOf(response)).toBe(tenantMessages.nameTaken);
    });

    it('lists tenants as {data, count} with skip and limit', async () => {
      await createTenant();
      await createTenant();
      const all = await api({ method: 'GET', url: '/tenants/?skip=0&limit=1000', user: admin });
      const { data, count } = all.json<{ data: TenantPublic[]; count: number }>();
      expect(count).toBe(data.length);
      expect(count).toBeGreaterThanOrEqual(2);
      const page = await api({ method: 'GET', url: '/tenants/?skip=1&limit=1', user: admin });
      expect(page.json()).toEqual({ data: [data[1]], count });
      expect((await api({ method: 'GET', url: '/tenants/?limit=0', user: admin })).statusCode).toBe(422);
      expect(all.body).not.toContain('s3cr3t-pw');
    });

    it('answers 404 for an unknown tenant and 422 for a malformed id', async () => {
      const unknown = await api({ method: 'GET', url: '/tenants/00000000-0000-4000-8000-000000000000', user: admin });
      expect(unknown.statusCode).toBe(404);
      expect(detailOf(unknown)).toBe(tenantMessages.notFound);
      expect((await api({ method: 'GET', url: '/tenants/nope', user: admin })).statusCode).toBe(422);
    });
  });

  describe('access', () => {
    it('refuses every tenant call to a user without the tenants permissions, and to anonymous callers', async () => {
      const tenant = await createTenant();
      const calls: (InjectOptions & { url: string })[] = [
        { method: 'GET', url: '/tenants/' },
        { method: 'POST', url: '/tenants/', payload: { name: 'Forbidden' } },
        { method: 'GET', url: `/tenants/${tenant.id}` },
        { method: 'PUT', url: `/tenants/${tenant.id}`, payload: { name: 'Renamed' } },
        { method: 'DELETE', url: `/tenants/${tenant.id}` },
        { method: 'POST', url: `/tenants/${tenant.id}/check-connection` },
        { method: 'GET', url: `/tenants/${tenant.id}/members` },
        { method: 'PUT', url: `/tenants/${tenant.id}/members`, payload: [plain.id] },
      ];
      for (const call of calls) {
        const asPlain = await api({ ...call, user: plain });
        expect(asPlain.statusCode, `${call.method} ${call.url}`).toBe(403);
        expect(detailOf(asPlain)).toBe(userMessages.notEnoughPrivileges);
        const anonymous = await api(call);
        expect(anonymous.statusCode, `${call.method} ${call.url}`).toBe(401);
      }
      expect((await storedRow(tenant.id)).name).toBe(tenant.name);
      expect(await ctx.database.db.select().from(tenantMembers).where(eq(tenantMembers.tenantId, tenant.id))).toEqual(
        [],
      );
    });
  });

  describe('update', () => {
    it('keeps the stored secret when the masked URL is sent back', async () => {
      const tenant = await createTenant({ dburl: dbA.url });
      expect(tenant.dburl).toBe(maskedOf(dbA.url));
      const sealedBefore = (await storedRow(tenant.id)).dburlSealed;

      const response = await api({
        method: 'PUT',
        url: `/tenants/${tenant.id}`,
        user: admin,
        payload: { name: tenant.name, description: 'edited', status: 'active', dburl: tenant.dburl },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ description: 'edited', dburl: maskedOf(dbA.url) });
      expect((await storedRow(tenant.id)).dburlSealed).toBe(sealedBefore);
      expect((await checkConnection(tenant.id)).ok).toBe(true);
    });

    it('keeps the stored password when other parts of the URL change around the mask', async () => {
      const tenant = await createTenant({ dburl: dbA.url });
      const edited = `${maskedOf(dbA.url)}?application_name=edited`;
      const response = await api({
        method: 'PUT',
        url: `/tenants/${tenant.id}`,
        user: admin,
        payload: { dburl: edited },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json<TenantPublic>().dburl).toBe(edited);
      expect(await checkConnection(tenant.id)).toMatchObject({ ok: true });
    });

    it('replaces the secret when a new password is sent, and removes the URL on null', async () => {
      const tenant = await createTenant({ dburl: dbA.url });
      await api({ method: 'PUT', url: `/tenants/${tenant.id}`, user: admin, payload: { dburl: dbA.wrongPasswordUrl } });
      expect((await checkConnection(tenant.id)).ok).toBe(false);
      await api({ method: 'PUT', url: `/tenants/${tenant.id}`, user: admin, payload: { dburl: dbA.url } });
      expect((await checkConnection(tenant.id)).ok).toBe(true);

      const cleared = await api({ method: 'PUT', url: `/tenants/${tenant.id}`, user: admin, payload: { dburl: null } });
      expect(cleared.json<TenantPublic>().dburl).toBeNull();
      expect(await storedRow(tenant.id)).toMatchObject({ dburlSealed: null, dburlMasked: null });
      expect(await checkConnection(tenant.id)).toEqual({ ok: false, detail: tenantMessages.noDatabase });
    });

    it('refuses a masked password when no password is stored', async () => {
      const tenant = await createTenant({ dburl: 'postgresql://app@db.example/acme' });
      const response = await api({
        method: 'PUT',
        url: `/tenants/${tenant.id}`,
        user: admin,
        payload: { dburl: 'postgresql://app:****@db.example/acme' },
      });
      expect(response.statusCode).toBe(422);
      expect(detailOf(response)).toBe(tenantMessages.dburlMaskedWithoutSecret);
      expect((await storedRow(tenant.id)).dburlMasked).toBe('postgresql://app@db.example/acme');
    });

    it('changes only the fields sent; clears the description on ""; refuses a taken name', async () => {
      const other = await createTenant();
      const tenant = await createTenant({ description: 'before' });
      const cleared = await api({
        method: 'PUT',
        url: `/tenants/${tenant.id}`,
        user: admin,
        payload: { description: '' },
      });
      expect(cleared.json()).toMatchObject({ name: tenant.name, description: null, status: 'active' });

      const taken = await api({
        method: 'PUT',
        url: `/tenants/${tenant.id}`,
        user: admin,
        payload: { name: other.name },
      });
      expect(taken.statusCode).toBe(409);
      expect(detailOf(taken)).toBe(tenantMessages.nameTaken);

      const blank = await api({ method: 'PUT', url: `/tenants/${tenant.id}`, user: admin, payload: { name: ' ' } });
      expect(blank.statusCode).toBe(422);
      expect(detailOf(blank)).toBe(tenantMessages.nameRequired);

      const unknown = await api({
        method: 'PUT',
        url: '/tenants/00000000-0000-4000-8000-000000000000',
        user: admin,
        payload: { name: 'x' },
      });
      expect(unknown.statusCode).toBe(404);
      expect(detailOf(unknown)).toBe(tenantMessages.notFound);
    });
  });

  describe('audit', () => {
    it('records each change with the URL masked and the password nowhere', async () => {
      const password = 'audit-secret-pw';
      const created = await createTenant({ dburl: `postgresql://app:${password}@db.example/acme` });
      const url = `/tenants/${created.id}`;
      await api({ method: 'PUT', url, user: admin, payload: { description: 'edited', dburl: created.dburl } });
      await api({ method: 'PUT', url, user: admin, payload: { dburl: 'postgresql://app:new-secret@db.example/acme' } });
      await api({ method: 'PUT', url: `${url}/members`, user: admin, payload: [plain.id] });
      await api({ method: 'DELETE', url, user: admin });

      const response = await api({
        method: 'GET',
        url: `/audit/?target_type=tenant&target_id=${created.id}`,
        user: admin,
      });
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain(password);
      expect(response.body).not.toContain('new-secret');
      type Entry = {
        action: string;
        actor_id: string;
        before: Record<string, unknown> | null;
        after: Record<string, unknown> | null;
      };
      const entries = response.json<{ data: Entry[] }>().data.reverse();
      expect(entries.map((e) => e.action)).toEqual([
        'tenant.create',
        'tenant.update',
        'tenant.update',
        'tenant.members.replace',
        'tenant.delete',
      ]);
      expect(entries.every((e) => e.actor_id === admin.id)).toBe(true);
      const [create, keep, replace, members, remove] = entries as [Entry, Entry, Entry, Entry, Entry];
      expect(create.after).toMatchObject({ name: created.name, dburl: 'postgresql://app:****@db.example/acme' });
      // Sending the masked URL back keeps the secret: same fingerprint. A new password changes it.
      expect(keep.after?.dburl_secret_fingerprint).toBe(keep.before?.dburl_secret_fingerprint);
      expect(keep.after?.description).toBe('edited');
      expect(replace.after?.dburl_secret_fingerprint).not.toBe(replace.before?.dburl_secret_fingerprint);
      expect(members).toMatchObject({ before: { user_ids: [] }, after: { user_ids: [plain.id] } });
      expect(remove).toMatchObject({ before: { id: created.id }, after: null });
    });
  });

  describe('check-connection', () => {
    it('reports the server version and latency of a reachable database', async () => {
      const tenant = await createTenant({ dburl: dbB.url });
      const result = await checkConnection(tenant.id);
      expect(result.ok).toBe(true);
      expect(result.latency_ms).toBeGreaterThanOrEqual(0);
      expect(result.server_version).toMatch(/^\d+(\.\d+)?/);
    });

    it("gives the driver's reason for a wrong password, without the password", async () => {
      const tenant = await createTenant({ dburl: dbA.wrongPasswordUrl });
      const response = await api({ method: 'POST', url: `/tenants/${tenant.id}/check-connection`, user: admin });
      const result = response.json<{ ok: boolean; detail: string }>();
      expect(result.ok).toBe(false);
      expect(result.detail).toMatch(/password authentication failed for user/);
      expect(response.body).not.toContain(passwordOf(dbA.wrongPasswordUrl));
    });

    it('reports an unreachable host', async () => {
      const tenant = await createTenant({ dburl: unreachableUrl });
      const response = await api({ method: 'POST', url: `/tenants/${tenant.id}/check-connection`, user: admin });
      const result = response.json<{ ok: boolean; detail: string }>();
      expect(result.ok).toBe(false);
      expect(result.detail).toMatch(/ECONNREFUSED/);
      expect(response.body).not.toContain('unreachable-secret');
    });

    it('says so when the stored URL no longer decrypts (SECRET_KEY changed), and asks for it again', async () => {
      const donor = await createTenant({ dburl: dbA.url });
      const tenant = await createTenant({ dburl: dbB.url });
      // A value sealed for another tenant fails to open, exactly as one sealed under an old key.
      await ctx.database.db
        .update(tenants)
        .set({ dburlSealed: (await storedRow(donor.id)).dburlSealed })
        .where(eq(tenants.id, tenant.id));
      expect(await checkConnection(tenant.id)).toEqual({ ok: false, detail: tenantMessages.dburlUnreadable });
      const read = await api({ method: 'GET', url: '/tenants/current/tables', user: admin, tenant: tenant.id });
      expect(read.statusCode).toBe(503);
      expect(detailOf(read)).toBe(tenantMessages.databaseUnavailable);
      const keep = await api({
        method: 'PUT',
        url: `/tenants/${tenant.id}`,
        user: admin,
        payload: { dburl: `${tenant.dburl}?x=1` },
      });
      expect(keep.statusCode).toBe(422);
      expect(detailOf(keep)).toBe(tenantMessages.dburlMaskedWithoutSecret);
      const again = await api({
        method: 'PUT',
        url: `/tenants/${tenant.id}`,
        user: admin,
        payload: { dburl: dbB.url },
      });
      expect(again.statusCode).toBe(200);
      expect((await checkConnection(tenant.id)).ok).toBe(true);
    });

    it('answers ok:false for a tenant without a URL and 404 for an unknown tenant', async () => {
      const tenant = await createTenant();
      expect(await checkConnection(tenant.id)).toEqual({ ok: false, detail: tenantMessages.noDatabase });
      const unknown = await api({
        method: 'POST',
        url: '/tenants/00000000-0000-4000-8000-000000000000/check-connection',
        user: admin,
      });
      expect(unknown.statusCode).toBe(404);
    });
  });

  describe('TENANT_DB_HOSTS', () => {
    /** A second server on the same database, allowed only hosts under db.example.test. */
    async function withAllowList<T>(run: (app: FastifyInstance) => Promise<T>): Promise<T> {
      const config = {
        ...ctx.config,
        tenantDatabases: { ...ctx.config.tenantDatabases, allowedHosts: ['*.db.example.test'] },
      };
      const app = await buildApp(config, { database: ctx.database, clock: ctx.clock });
      await app.ready();
      try {
        return await run(app);
      } finally {
        await app.close();
      }
    }

    it('refuses a URL on any other host, also through a host parameter, and takes one on a listed host', async () => {
      await withAllowList(async (app) => {
        const create = (dburl: string) =>
          app.inject({
            method: 'POST',
            url: '/api/v1/tenants/',
            headers: admin.headers,
            payload: { name: `Allow-listed ${(nameCounter += 1)}`, dburl },
          });
        for (const dburl of [
          dbA.url,
          'postgresql://app:secret@db.example.test/app',
          'postgresql://app:secret@pg.db.example.test/app?host=10.0.0.5',
          'postgresql://app:secret@pg.db.example.test.evil.example/app',
        ]) {
          const refused = await create(dburl);
          expect(refused.statusCode, dburl).toBe(422);
          expect(refused.json<{ detail: unknown[] }>().detail, dburl).toEqual([
            expect.objectContaining({ loc: ['body', 'dburl'], msg: tenantMessages.dburlHostNotAllowed }),
          ]);
        }
        expect((await create('postgresql://app:secret@pg.db.example.test:5432/app')).statusCode).toBe(201);
      });
    });

    it('will not connect to a URL stored before the list said otherwise', async () => {
      const tenant = await createTenant({ dburl: dbA.url });
      await api({ method: 'PUT', url: `/tenants/${tenant.id}/members`, user: admin, payload: [admin.id] });
      await withAllowList(async (app) => {
        const check = await app.inject({
          method: 'POST',
          url: `/api/v1/tenants/${tenant.id}/check-connection`,
          headers: admin.headers,
        });
        expect(check.json()).toEqual({ ok: false, detail: tenantMessages.dburlHostNotAllowed });
        const tables = await app.inject({
          method: 'GET',
          url: '/api/v1/tenants/current/tables',
          headers: { ...admin.headers, 'x-tenant-id': tenant.id },
        });
        expect(tables.statusCode).toBe(409);
        expect(tables.json()).toEqual({ detail: tenantMessages.dburlHostNotAllowed, code: 'conflict' });
      });
    });
  });

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
      withDatabase = await createTenant({ dburl: dbA.url });
      inactive = await createTenant({ dburl: dbA.url, status: 'inactive' });
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
      const down = await createTenant({ dburl: unreachableUrl });
      const noDatabase = await tables(admin, bare.id);
      expect(noDatabase.statusCode).toBe(409);
      expect(detailOf(noDatabase)).toBe(tenantMessages.noDatabase);
      const unavailable = await tables(admin, down.id);
      expect(unavailable.statusCode).toBe(503);
      expect(detailOf(unavailable)).toBe(tenantMessages.databaseUnavailable);
    });
  });

  describe('pool lifecycle (at most one pool here)', () => {
    const use = (tenantId: string) =>
      api({ method: 'GET', url: '/tenants/current/tables', user: admin, tenant: tenantId });

    it('opens a pool on first use only, keeps at most the configured number, and closes the least recent', async () => {
      const a = await createTenant({ dburl: dbA.url });
      const b = await createTenant({ dburl: dbB.url });
      expect(ctx.app.services.tenantPools.openTenantIds()).not.toContain(a.id);
      await waitUntil(async () => (await dbA.connectionCount()) === 0);

      expect((await use(a.id)).statusCode).toBe(200);
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([a.id]);
      expect(await dbA.connectionCount()).toBeGreaterThan(0);

      expect((await use(b.id)).statusCode).toBe(200);
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([b.id]);
      await waitUntil(async () => (await dbA.connectionCount()) === 0);
      expect(await dbB.connectionCount()).toBeGreaterThan(0);
    });

    it('closes the pool when the URL changes and reopens with the new one', async () => {
      const tenant = await createTenant({ dburl: dbA.url });
      expect((await use(tenant.id)).json<{ data: { name: string }[] }>().data[0]?.name).toBe('a_orders');
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([tenant.id]);

      const moved = await api({
        method: 'PUT',
        url: `/tenants/${tenant.id}`,
        user: admin,
        payload: { dburl: dbB.url },
      });
      expect(moved.statusCode).toBe(200);
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([]);
      await waitUntil(async () => (await dbA.connectionCount()) === 0);

      const after = await use(tenant.id);
      expect(after.json<{ data: { name: string }[] }>().data.map((t) => t.name)).toEqual(['b_invoices', 'b_totals']);
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([tenant.id]);
    });

    it('closes the pool when the tenant is deactivated', async () => {
      const tenant = await createTenant({ dburl: dbA.url });
      await use(tenant.id);
      await api({ method: 'PUT', url: `/tenants/${tenant.id}`, user: admin, payload: { status: 'inactive' } });
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([]);
      await waitUntil(async () => (await dbA.connectionCount()) === 0);
    });

    it('on delete removes memberships and closes the pool, and leaves the database as it was', async () => {
      const tenant = await createTenant({ dburl: dbA.url });
      await api({ method: 'PUT', url: `/tenants/${tenant.id}/members`, user: admin, payload: [plain.id] });
      await use(tenant.id);
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([tenant.id]);

      const deleted = await api({ method: 'DELETE', url: `/tenants/${tenant.id}`, user: admin });
      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBe('');
      expect(ctx.app.services.tenantPools.openTenantIds()).toEqual([]);
      await waitUntil(async () => (await dbA.connectionCount()) === 0);
      expect(await ctx.database.db.select().from(tenantMembers).where(eq(tenantMembers.tenantId, tenant.id))).toEqual(
        [],
      );
      expect((await api({ method: 'GET', url: `/tenants/${tenant.id}`, user: admin })).statusCode).toBe(404);
      expect((await use(tenant.id)).statusCode).toBe(404);

      // The tenant's data is still there: another tenant pointing at the same database reads it.
      const again = await createTenant({ dburl: dbA.url });
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
