import { tenantMessages } from '@dataplatform/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { detailOf } from '../../../test/harness.js';
import { tenants } from '../../db/schema/index.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { passwordOf, useTenantAdmin } from '../../../test/tenant-admin.js';

describe('tenant database connections', () => {
  const { ctx, admin, databases, api, createTenant, checkConnection, storedRow } = useTenantAdmin();
  let nameCounter = 0;

  describe('check-connection', () => {
    it('reports the server version and latency of a reachable database', async () => {
      const tenant = await createTenant({ dburl: databases.b.url });
      const result = await checkConnection(tenant.id);
      expect(result.ok).toBe(true);
      expect(result.latency_ms).toBeGreaterThanOrEqual(0);
      expect(result.server_version).toMatch(/^\d+(\.\d+)?/);
    });

    it("gives the driver's reason for a wrong password, without the password", async () => {
      const tenant = await createTenant({ dburl: databases.a.wrongPasswordUrl });
      const response = await api({ method: 'POST', url: `/tenants/${tenant.id}/check-connection`, user: admin });
      const result = response.json<{ ok: boolean; detail: string }>();
      expect(result.ok).toBe(false);
      expect(result.detail).toMatch(/password authentication failed for user/);
      expect(response.body).not.toContain(passwordOf(databases.a.wrongPasswordUrl));
    });

    it('reports an unreachable host', async () => {
      const tenant = await createTenant({ dburl: databases.unreachableUrl });
      const response = await api({ method: 'POST', url: `/tenants/${tenant.id}/check-connection`, user: admin });
      const result = response.json<{ ok: boolean; detail: string }>();
      expect(result.ok).toBe(false);
      expect(result.detail).toMatch(/ECONNREFUSED/);
      expect(response.body).not.toContain('unreachable-secret');
    });

    it('says so when the stored URL no longer decrypts (SECRET_KEY changed), and asks for it again', async () => {
      const donor = await createTenant({ dburl: databases.a.url });
      const tenant = await createTenant({ dburl: databases.b.url });
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
        payload: { dburl: databases.b.url },
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
          databases.a.url,
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
      const tenant = await createTenant({ dburl: databases.a.url });
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
});
