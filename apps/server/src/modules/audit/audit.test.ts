import { randomUUID } from 'node:crypto';
import { AUDIT_ACTIONS, PERMISSIONS, type AuditEntries, type RolePublic } from '@dataplatform/contract';
import { asc, gt, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createRole, permissionIdOf } from '../../../test/authz-fixtures.js';
import { createUser, useTestContext, type TestUser } from '../../../test/harness.js';
import { auditLog } from '../../db/schema/index.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

describe('audit log', () => {
  const { ctx, admin } = useTestContext();

  function call(method: Method, url: string, payload?: unknown, caller: TestUser = admin) {
    return ctx.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: caller.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  async function lastId(): Promise<number> {
    const [row] = await ctx.database.db.select({ max: sql<number | null>`max(${auditLog.id})` }).from(auditLog);
    return Number(row?.max ?? 0);
  }

  /** Runs one call and answers the response with exactly the audit rows it wrote. */
  async function audited(method: Method, url: string, payload?: unknown, caller: TestUser = admin) {
    const mark = await lastId();
    const response = await call(method, url, payload, caller);
    const rows = await ctx.database.db.select().from(auditLog).where(gt(auditLog.id, mark)).orderBy(asc(auditLog.id));
    return { response, rows };
  }

  function expectOk(response: LightMyRequestResponse) {
    expect(response.statusCode, response.body).toBeLessThan(300);
  }

  const noSecrets = (value: unknown) => {
    const text = JSON.stringify(value);
    expect(text).not.toMatch(/hash|argon|password"/i);
  };

  describe('user administration', () => {
    it('records a created user once, with its fields and no password or hash', async () => {
      const email = `created-${randomUUID().slice(0, 6)}@example.com`;
      const { response, rows } = await audited('POST', '/users/', {
        email,
        password: 'a-good-password',
        full_name: 'Created Person',
        is_active: true,
        is_superuser: false,
      });
      expectOk(response);
      expect(rows).toHaveLength(1);
      const [row] = rows;
      expect(row).toMatchObject({
        actorId: admin.id,
        actorEmail: admin.email,
        action: AUDIT_ACTIONS.userCreate,
        targetType: 'user',
        targetId: response.json<{ id: string }>().id,
        before: null,
        ip: '127.0.0.1',
      });
      expect(row!.after).toMatchObject({ email, full_name: 'Created Person', is_active: true, is_superuser: false });
      expect(row!.createdAt.toISOString()).toBe(ctx.clock.now().toISOString());
      noSecrets(row);
      expect(JSON.stringify(row)).not.toContain('a-good-password');
    });

    it('records a change of the active flag with before and after', async () => {
      const target = await createUser(ctx);
      const { response, rows } = await audited('PATCH', `/users/${target.id}`, { is_active: false });
      expectOk(response);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ action: AUDIT_ACTIONS.userUpdate, targetId: target.id });
      expect(rows[0]!.before).toMatchObject({ id: target.id, email: target.email, is_active: true });
      expect(rows[0]!.after).toMatchObject({ id: target.id, email: target.email, is_active: false });
    });

    it('records a change of the superuser flag with before and after', async () => {
      const target = await createUser(ctx);
      const { rows } = await audited('PATCH', `/users/${target.id}`, { is_superuser: true });
      expect(rows).toHaveLength(1);
      expect(rows[0]!.before).toMatchObject({ is_superuser: false });
      expect(rows[0]!.after).toMatchObject({ is_superuser: true });
    });

    it('records a password set by an admin as a change of date, never the password or its hash', async () => {
      const target = await createUser(ctx);
      ctx.clock.advance(60_000);
      const { rows } = await audited('PATCH', `/users/${target.id}`, { password: 'another-good-password' });
      expect(rows).toHaveLength(1);
      noSecrets(rows[0]);
      expect(JSON.stringify(rows[0])).not.toContain('another-good-password');
      const before = rows[0]!.before as { password_changed_at: string };
      const after = rows[0]!.after as { password_changed_at: string };
      expect(after.password_changed_at).not.toBe(before.password_changed_at);
    });

    it('records a deleted user with what it was', async () => {
      const target = await createUser(ctx);
      const { response, rows } = await audited('DELETE', `/users/${target.id}`);
      expect(response.statusCode).toBe(204);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ action: AUDIT_ACTIONS.userDelete, targetId: target.id, after: null });
      expect(rows[0]!.before).toMatchObject({ id: target.id, email: target.email });
    });

    it('writes nothing when the change fails or is only a read', async () => {
      const taken = await createUser(ctx);
      const failures = [
        await audited('POST', '/users/', { email: taken.email, password: 'a-good-password' }),
        await audited('PATCH', `/users/${randomUUID()}`, { full_name: 'Nobody' }),
        await audited('DELETE', `/users/${randomUUID()}`),
        await audited('GET', '/users/'),
        await audited('GET', `/users/${taken.id}`),
      ];
      expect(failures.map(({ response }) => response.statusCode)).toEqual([409, 404, 404, 200, 200]);
      for (const { rows } of failures) expect(rows).toEqual([]);
    });
  });

  describe('roles, permissions and assignments', () => {
    it('records each create, update and delete of a role once, with before and after', async () => {
      const created = await audited('POST', '/authorization/roles', { name: 'audited-role', description: 'one' });
      expect(created.rows).toHaveLength(1);
      const role = created.response.json<RolePublic>();
      expect(created.rows[0]).toMatchObject({
        action: AUDIT_ACTIONS.roleCreate,
        targetType: 'role',
        targetId: role.id,
        before: null,
        after: role,
      });

      const updated = await audited('PUT', `/authorization/roles/${role.id}`, { description: 'two' });
      expect(updated.rows).toHaveLength(1);
      expect(updated.rows[0]).toMatchObject({
        action: AUDIT_ACTIONS.roleUpdate,
        before: role,
        after: updated.response.json<Record<string, unknown>>(),
      });
      expect(updated.rows[0]!.after).toMatchObject({ description: 'two' });

      const member = await createUser(ctx);
      const usersRead = await permissionIdOf(ctx, PERMISSIONS.usersRead);
      await call('PUT', `/authorization/user/${member.id}/roles`, [role.id]);
      await call('PUT', `/authorization/role/${role.id}/permissions`, [usersRead]);
      const deleted = await audited('DELETE', `/authorization/roles/${role.id}`);
      expect(deleted.rows).toHaveLength(1);
      expect(deleted.rows[0]).toMatchObject({
        action: AUDIT_ACTIONS.roleDelete,
        targetId: role.id,
        before: {
          ...updated.response.json<Record<string, unknown>>(),
          user_ids: [member.id],
          permission_ids: [usersRead],
        },
        after: null,
      });
    });

    it('records each create, update and delete of a permission once', async () => {
      const created = await audited('POST', '/authorization/permissions', { name: 'exports:run' });
      const permission = created.response.json<{ id: string }>();
      expect(created.rows).toHaveLength(1);
      expect(created.rows[0]).toMatchObject({ action: AUDIT_ACTIONS.permissionCreate, after: permission });
      const updated = await audited('PUT', `/authorization/permissions/${permission.id}`, { name: 'exports:start' });
      expect(updated.rows).toHaveLength(1);
      expect(updated.rows[0]!.before).toMatchObject({ name: 'exports:run' });
      expect(updated.rows[0]!.after).toMatchObject({ name: 'exports:start' });
      const deleted = await audited('DELETE', `/authorization/permissions/${permission.id}`);
      expect(deleted.rows).toHaveLength(1);
      expect(deleted.rows[0]).toMatchObject({
        action: AUDIT_ACTIONS.permissionDelete,
        before: { name: 'exports:start', role_ids: [] },
        after: null,
      });
    });

    it('records each assignment with the set before and after', async () => {
      const member = await createUser(ctx);
      const [first, second] = [await createRole(ctx), await createRole(ctx)];
      const added = await audited('POST', '/authorization/user-role', { user_id: member.id, role_id: first.id });
      expect(added.rows).toHaveLength(1);
      expect(added.rows[0]).toMatchObject({
        action: AUDIT_ACTIONS.userRoleAdd,
        targetType: 'user',
        targetId: member.id,
        before: { role_ids: [] },
        after: { role_ids: [first.id] },
      });
      const replaced = await audited('PUT', `/authorization/user/${member.id}/roles`, [second.id]);
      expect(replaced.rows).toHaveLength(1);
      expect(replaced.rows[0]).toMatchObject({
        action: AUDIT_ACTIONS.userRolesReplace,
        before: { role_ids: [first.id] },
        after: { role_ids: [second.id] },
      });

      const [read, write] = [
        await permissionIdOf(ctx, PERMISSIONS.usersRead),
        await permissionIdOf(ctx, 'users:write'),
      ];
      const granted = await audited('POST', '/authorization/role-permission', {
        role_id: first.id,
        permission_id: read,
      });
      expect(granted.rows).toHaveLength(1);
      expect(granted.rows[0]).toMatchObject({
        action: AUDIT_ACTIONS.rolePermissionAdd,
        targetType: 'role',
        targetId: first.id,
        before: { permission_ids: [] },
        after: { permission_ids: [read] },
      });
      const regranted = await audited('PUT', `/authorization/role/${first.id}/permissions`, [write, read, write]);
      expect(regranted.rows).toHaveLength(1);
      expect(regranted.rows[0]).toMatchObject({
        action: AUDIT_ACTIONS.rolePermissionsReplace,
        before: { permission_ids: [read] },
        after: { permission_ids: [read, write].sort() },
      });
    });

    it('writes nothing for refused changes', async () => {
      const role = await createRole(ctx);
      const member = await createUser(ctx);
      await call('POST', '/authorization/user-role', { user_id: member.id, role_id: role.id });
      const refused = [
        await audited('POST', '/authorization/roles', { name: role.name }),
        await audited('POST', '/authorization/user-role', { user_id: member.id, role_id: role.id }),
        await audited('PUT', `/authorization/user/${member.id}/roles`, [randomUUID()]),
        await audited('DELETE', `/authorization/permissions/${await permissionIdOf(ctx, PERMISSIONS.auditRead)}`),
        await audited('POST', '/authorization/roles', { name: 'not-allowed' }, member),
      ];
      expect(refused.map(({ response }) => response.statusCode)).toEqual([409, 409, 422, 400, 403]);
      for (const { rows } of refused) expect(rows).toEqual([]);
    });
  });

  describe('GET /audit/', () => {
    it('pages newest first and filters by actor, target and action', async () => {
      const operator = await createUser(ctx);
      await createRole(ctx, { grants: [PERMISSIONS.rolesWrite], userIds: [operator.id] });
      const role = (await call('POST', '/authorization/roles', { name: 'filtered' }, operator)).json<RolePublic>();
      ctx.clock.advance(1000);
      await call('PUT', `/authorization/roles/${role.id}`, { description: 'later' }, operator);

      const read = (query: string) =>
        call('GET', `/audit/?${query}`).then((response) => {
          expect(response.statusCode, response.body).toBe(200);
          return response.json<AuditEntries>();
        });
      const byActor = await read(`actor_id=${operator.id}`);
      expect(byActor.count).toBe(2);
      expect(byActor.data.map((entry) => entry.action)).toEqual([AUDIT_ACTIONS.roleUpdate, AUDIT_ACTIONS.roleCreate]);
      expect(byActor.data[0]).toMatchObject({ actor_id: operator.id, actor_email: operator.email, ip: '127.0.0.1' });

      const byTarget = await read(`target_type=role&target_id=${role.id}`);
      expect(byTarget.count).toBe(2);
      const byAction = await read(`action=${AUDIT_ACTIONS.roleUpdate}&target_id=${role.id}`);
      expect(byAction.data).toHaveLength(1);
      expect(byAction.data[0]!.after).toMatchObject({ description: 'later' });

      const all = await read('limit=1000');
      const page = await read('skip=1&limit=2');
      expect(page.count).toBe(all.count);
      expect(page.data).toEqual(all.data.slice(1, 3));
      expect(all.data.map((entry) => entry.created_at)).toEqual(
        [...all.data.map((entry) => entry.created_at)].sort().reverse(),
      );
      expect((await call('GET', '/audit/?actor_id=nope')).statusCode).toBe(422);
    });

    it('is open to holders of audit:read only', async () => {
      const auditor = await createUser(ctx);
      expect((await call('GET', '/audit/', undefined, auditor)).statusCode).toBe(403);
      await createRole(ctx, { grants: [PERMISSIONS.auditRead], userIds: [auditor.id] });
      expect((await call('GET', '/audit/', undefined, auditor)).statusCode).toBe(200);
    });
  });

  describe('append-only', () => {
    it('has no call that changes or removes an entry', async () => {
      for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
        expect((await call(method, '/audit/', {})).statusCode).toBe(404);
        expect((await call(method, '/audit/1', {})).statusCode).toBe(404);
      }
    });

    it('is refused by the database itself', async () => {
      await call('POST', '/authorization/roles', { name: 'kept-forever' });
      const count = async () => (await ctx.database.db.select({ n: sql<number>`count(*)` }).from(auditLog))[0]!.n;
      const before = Number(await count());
      await expect(ctx.database.db.update(auditLog).set({ action: 'forged' })).rejects.toThrow();
      await expect(ctx.database.db.delete(auditLog)).rejects.toThrow();
      await expect(ctx.database.db.execute(sql`TRUNCATE audit_log`)).rejects.toThrow();
      expect(Number(await count())).toBe(before);
    });
  });
});
