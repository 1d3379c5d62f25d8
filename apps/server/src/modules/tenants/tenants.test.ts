import { tenantMessages, userMessages, type TenantPublic } from '@dataplatform/contract';
import type { InjectOptions } from 'fastify';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { detailOf } from '../../../test/harness.js';
import { maskedOf, useTenantAdmin } from '../../../test/tenant-admin.js';
import { tenantMembers } from '../../db/schema/index.js';

// Connections and allowed hosts: tenant-connections.test.ts; members and X-Tenant-ID: tenant-members.test.ts;
// pools: tenant-pools.test.ts.

describe('tenants', () => {
  const { ctx, admin, plain, databases, api, createTenant, checkConnection, storedRow } = useTenantAdmin();

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
      const tenant = await createTenant({ dburl: databases.a.url });
      expect(tenant.dburl).toBe(maskedOf(databases.a.url));
      const sealedBefore = (await storedRow(tenant.id)).dburlSealed;

      const response = await api({
        method: 'PUT',
        url: `/tenants/${tenant.id}`,
        user: admin,
        payload: { name: tenant.name, description: 'edited', status: 'active', dburl: tenant.dburl },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ description: 'edited', dburl: maskedOf(databases.a.url) });
      expect((await storedRow(tenant.id)).dburlSealed).toBe(sealedBefore);
      expect((await checkConnection(tenant.id)).ok).toBe(true);
    });

    it('keeps the stored password when other parts of the URL change around the mask', async () => {
      const tenant = await createTenant({ dburl: databases.a.url });
      const edited = `${maskedOf(databases.a.url)}?application_name=edited`;
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
      const tenant = await createTenant({ dburl: databases.a.url });
      await api({
        method: 'PUT',
        url: `/tenants/${tenant.id}`,
        user: admin,
        payload: { dburl: databases.a.wrongPasswordUrl },
      });
      expect((await checkConnection(tenant.id)).ok).toBe(false);
      await api({ method: 'PUT', url: `/tenants/${tenant.id}`, user: admin, payload: { dburl: databases.a.url } });
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
});
