import { randomUUID } from 'node:crypto';
import {
  ALL_PERMISSIONS,
  authzMessages,
  PERMISSION_DESCRIPTIONS,
  PERMISSIONS,
  userMessages,
  type PermissionPublic,
  type RolePublic,
} from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { createRole, permissionIdOf } from '../../../test/authz-fixtures.js';
import { createUser, detailOf, useTestContext, type TestUser } from '../../../test/harness.js';

const BASE = '/api/v1/authorization';

describe('authorization', () => {
  const { ctx, admin } = useTestContext();

  function request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    caller: TestUser | undefined = admin,
  ) {
    return ctx.app.inject({
      method,
      url: `${BASE}${url}`,
      headers: caller?.headers ?? {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  async function newRole(name = `role-${randomUUID().slice(0, 8)}`): Promise<RolePublic> {
    const response = await request('POST', '/roles', { name, description: 'a role' });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  async function newPermission(name = `perm:${randomUUID().slice(0, 8)}`): Promise<PermissionPublic> {
    const response = await request('POST', '/permissions', { name, description: 'a permission' });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  const idsOf = (response: { json(): { data: { id: string }[] } }) =>
    response
      .json()
      .data.map((row) => row.id)
      .sort();

  describe('the seeded permissions', () => {
    it('are exactly the contract list, with its descriptions', async () => {
      const response = await request('GET', '/permissions?limit=1000');
      expect(response.statusCode).toBe(200);
      const seeded = response.json<{ data: PermissionPublic[] }>().data;
      expect(Object.fromEntries(seeded.map((row) => [row.name, row.description]))).toEqual(PERMISSION_DESCRIPTIONS);
      expect(seeded.map((row) => row.name).sort()).toEqual([...ALL_PERMISSIONS].sort());
    });

    it('keep their names: renaming or deleting one is refused, its description may change', async () => {
      const id = await permissionIdOf(ctx, PERMISSIONS.usersRead);
      const rename = await request('PUT', `/permissions/${id}`, { name: 'users:peek' });
      expect(rename.statusCode).toBe(400);
      expect(detailOf(rename)).toBe(authzMessages.builtInPermission);
      const remove = await request('DELETE', `/permissions/${id}`);
      expect(remove.statusCode).toBe(400);
      const describe = await request('PUT', `/permissions/${id}`, { description: 'Read people' });
      expect(describe.statusCode).toBe(200);
      expect(describe.json()).toMatchObject({ name: PERMISSIONS.usersRead, description: 'Read people' });
    });
  });

  describe('roles', () => {
    it('are created with the caller as author, whatever the body says', async () => {
      const stranger = randomUUID();
      const response = await request('POST', '/roles', {
        name: 'support',
        description: 'Answers customers',
        created_by: stranger,
        updated_by: stranger,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({
        name: 'support',
        description: 'Answers customers',
        created_by: admin.id,
        updated_by: admin.id,
      });
    });

    it('are listed by name with a total, read, updated and deleted', async () => {
      const role = await newRole('zz-listed');
      const list = await request('GET', '/roles?skip=0&limit=1000');
      expect(list.statusCode).toBe(200);
      const body = list.json<{ data: RolePublic[]; count: number }>();
      expect(body.count).toBe(body.data.length);
      const names = body.data.map((row) => row.name);
      expect(names).toEqual([...names].sort());
      expect(names).toContain('zz-listed');

      expect((await request('GET', `/roles/${role.id}`)).json()).toEqual(role);

      const editor = await createUser(ctx);
      await createRole(ctx, { grants: [PERMISSIONS.rolesWrite], userIds: [editor.id] });
      const updated = await request(
        'PUT',
        `/roles/${role.id}`,
        { name: 'zz-renamed', created_by: randomUUID(), updated_by: randomUUID() },
        editor,
      );
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toMatchObject({
        id: role.id,
        name: 'zz-renamed',
        description: 'a role',
        created_by: admin.id,
        updated_by: editor.id,
      });

      expect((await request('DELETE', `/roles/${role.id}`)).statusCode).toBe(204);
      const gone = await request('GET', `/roles/${role.id}`);
      expect(gone.statusCode).toBe(404);
      expect(detailOf(gone)).toBe(authzMessages.roleNotFound);
      expect((await request('DELETE', `/roles/${role.id}`)).statusCode).toBe(404);
      expect((await request('PUT', `/roles/${role.id}`, { name: 'again' })).statusCode).toBe(404);
    });

    it('have unique names, whatever the case', async () => {
      await newRole('Auditors');
      const again = await request('POST', '/roles', { name: 'auditors' });
      expect(again.statusCode).toBe(409);
      expect(detailOf(again)).toBe(authzMessages.roleNameTaken);
      const other = await newRole('other-auditors');
      const rename = await request('PUT', `/roles/${other.id}`, { name: 'AUDITORS' });
      expect(rename.statusCode).toBe(409);
    });

    it('need a name', async () => {
      for (const body of [{}, { name: '' }, { name: '   ' }, { name: 7 }]) {
        const response = await request('POST', '/roles', body);
        expect(response.statusCode).toBe(422);
        expect(detailOf(response)).toBe(authzMessages.roleNameRequired);
      }
      const tooLong = await request('POST', '/roles', { name: 'x'.repeat(101) });
      expect(tooLong.statusCode).toBe(422);
      expect((await request('GET', '/roles/not-a-uuid')).statusCode).toBe(422);
    });

    it('take their assignments with them when deleted', async () => {
      const member = await createUser(ctx);
      const role = await newRole();
      const permission = await newPermission();
      expect((await request('PUT', `/user/${member.id}/roles`, [role.id])).statusCode).toBe(200);
      expect((await request('PUT', `/role/${role.id}/permissions`, [permission.id])).statusCode).toBe(200);
      expect((await request('DELETE', `/roles/${role.id}`)).statusCode).toBe(204);
      expect(idsOf(await request('GET', `/user/${member.id}/roles`))).toEqual([]);
      expect((await request('GET', `/role/${role.id}/permissions`)).statusCode).toBe(404);
    });
  });

  describe('permissions', () => {
    it('are created, updated and deleted like roles; deleting one removes its grants', async () => {
      const permission = await newPermission('reports:export');
      expect(permission).toMatchObject({ created_by: admin.id, updated_by: admin.id });
      const blank = await request('POST', '/permissions', { name: ' ' });
      expect(blank.statusCode).toBe(422);
      expect(detailOf(blank)).toBe(authzMessages.permissionNameRequired);
      const duplicate = await request('POST', '/permissions', { name: 'Reports:Export' });
      expect(duplicate.statusCode).toBe(409);
      expect(detailOf(duplicate)).toBe(authzMessages.permissionNameTaken);

      const updated = await request('PUT', `/permissions/${permission.id}`, { name: 'reports:download' });
      expect(updated.json()).toMatchObject({ name: 'reports:download', description: 'a permission' });

      const role = await newRole();
      await request('PUT', `/role/${role.id}/permissions`, [permission.id]);
      expect((await request('DELETE', `/permissions/${permission.id}`)).statusCode).toBe(204);
      expect(idsOf(await request('GET', `/role/${role.id}/permissions`))).toEqual([]);
      const gone = await request('GET', `/permissions/${permission.id}`);
      expect(gone.statusCode).toBe(404);
      expect(detailOf(gone)).toBe(authzMessages.permissionNotFound);
    });
  });

  describe('user roles', () => {
    it('are replaced as a whole by PUT, and read back by GET', async () => {
      const member = await createUser(ctx);
      const [a, b, c] = [await newRole(), await newRole(), await newRole()];
      const first = await request('PUT', `/user/${member.id}/roles`, [a.id, b.id]);
      expect(first.statusCode).toBe(200);
      expect(idsOf(first)).toEqual([a.id, b.id].sort());
      const second = await request('PUT', `/user/${member.id}/roles`, [b.id, c.id]);
      expect(idsOf(second)).toEqual([b.id, c.id].sort());
      expect(second.json<{ count: number }>().count).toBe(2);
      expect(idsOf(await request('GET', `/user/${member.id}/roles`))).toEqual([b.id, c.id].sort());
      const cleared = await request('PUT', `/user/${member.id}/roles`, []);
      expect(cleared.json()).toEqual({ data: [], count: 0 });
    });

    it('count a repeated id once', async () => {
      const member = await createUser(ctx);
      const role = await newRole();
      const response = await request('PUT', `/user/${member.id}/roles`, [role.id, role.id, role.id]);
      expect(response.statusCode).toBe(200);
      expect(idsOf(response)).toEqual([role.id]);
    });

    it('refuse an unknown role id with a 422 naming it, and change nothing', async () => {
      const member = await createUser(ctx);
      const kept = await newRole();
      await request('PUT', `/user/${member.id}/roles`, [kept.id]);
      const unknown = randomUUID();
      const response = await request('PUT', `/user/${member.id}/roles`, [(await newRole()).id, unknown]);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        detail: [{ loc: ['body', 1], msg: authzMessages.unknownRole(unknown), type: 'value_error' }],
        code: 'validation_failed',
      });
      expect(idsOf(await request('GET', `/user/${member.id}/roles`))).toEqual([kept.id]);
    });

    it('refuse bodies that are not a list of ids, and unknown users', async () => {
      const member = await createUser(ctx);
      for (const body of [{}, ['not-a-uuid'], [1], { role_ids: [] }]) {
        expect((await request('PUT', `/user/${member.id}/roles`, body)).statusCode).toBe(422);
      }
      const missing = await request('PUT', `/user/${randomUUID()}/roles`, []);
      expect(missing.statusCode).toBe(404);
      expect(detailOf(missing)).toBe(userMessages.notFound);
      expect((await request('GET', `/user/${randomUUID()}/roles`)).statusCode).toBe(404);
    });

    it('gain one role at a time by POST; the same pair twice is a conflict', async () => {
      const member = await createUser(ctx);
      const role = await newRole();
      const added = await request('POST', '/user-role', { user_id: member.id, role_id: role.id });
      expect(added.statusCode).toBe(201);
      expect(added.json()).toMatchObject({ user_id: member.id, role_id: role.id });
      const twice = await request('POST', '/user-role', { user_id: member.id, role_id: role.id });
      expect(twice.statusCode).toBe(409);
      expect(detailOf(twice)).toBe(authzMessages.userAlreadyHasRole);
      expect(idsOf(await request('GET', `/user/${member.id}/roles`))).toEqual([role.id]);

      const unknownRole = randomUUID();
      const noRole = await request('POST', '/user-role', { user_id: member.id, role_id: unknownRole });
      expect(noRole.statusCode).toBe(422);
      expect(noRole.json()).toEqual({
        detail: [{ loc: ['body', 'role_id'], msg: authzMessages.unknownRole(unknownRole), type: 'value_error' }],
        code: 'validation_failed',
      });
      const noUser = await request('POST', '/user-role', { user_id: randomUUID(), role_id: role.id });
      expect(noUser.statusCode).toBe(422);
      expect(detailOf(noUser)).toBe(userMessages.notFound);
    });

    it('end up as exactly one of the sets when PUTs race', async () => {
      const member = await createUser(ctx);
      const pool = await Promise.all(Array.from({ length: 6 }, () => newRole()));
      const sets = Array.from({ length: 8 }, (_, index) =>
        pool.filter((_, position) => (index + position) % 3 !== 0).map((role) => role.id),
      );
      const responses = await Promise.all(sets.map((set) => request('PUT', `/user/${member.id}/roles`, set)));
      for (const response of responses) expect(response.statusCode, response.body).toBe(200);
      const final = idsOf(await request('GET', `/user/${member.id}/roles`));
      expect(sets.map((set) => [...set].sort())).toContainEqual(final);
    });

    it('race with the deletion of a role they name without a server error or a dangling id', async () => {
      for (let round = 0; round < 5; round += 1) {
        const member = await createUser(ctx);
        const [doomed, kept] = [await newRole(), await newRole()];
        await request('PUT', `/user/${member.id}/roles`, [doomed.id]);
        const [put, removed, other] = await Promise.all([
          request('PUT', `/user/${member.id}/roles`, [doomed.id, kept.id]),
          request('DELETE', `/roles/${doomed.id}`),
          request('POST', '/user-role', { user_id: member.id, role_id: doomed.id }),
        ]);
        expect(removed.statusCode).toBe(204);
        expect([200, 422], put.body).toContain(put.statusCode);
        expect([409, 422], other.body).toContain(other.statusCode);
        const final = idsOf(await request('GET', `/user/${member.id}/roles`));
        expect(final).toEqual(put.statusCode === 200 ? [kept.id] : []);
      }
    });

    it('take one winner when the same pair is POSTed at once', async () => {
      const member = await createUser(ctx);
      const role = await newRole();
      const responses = await Promise.all(
        Array.from({ length: 6 }, () => request('POST', '/user-role', { user_id: member.id, role_id: role.id })),
      );
      expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    });
  });

  describe('role permissions', () => {
    it('are replaced as a whole by PUT, with duplicates counted once', async () => {
      const role = await newRole();
      const [p, q, r] = [await newPermission(), await newPermission(), await newPermission()];
      expect(idsOf(await request('PUT', `/role/${role.id}/permissions`, [p.id, q.id, p.id]))).toEqual(
        [p.id, q.id].sort(),
      );
      expect(idsOf(await request('PUT', `/role/${role.id}/permissions`, [r.id]))).toEqual([r.id]);
      expect(idsOf(await request('GET', `/role/${role.id}/permissions`))).toEqual([r.id]);
    });

    it('refuse unknown ids with a 422 naming the id, and unknown roles with a 404', async () => {
      const role = await newRole();
      const kept = await newPermission();
      await request('PUT', `/role/${role.id}/permissions`, [kept.id]);
      const unknown = randomUUID();
      const response = await request('PUT', `/role/${role.id}/permissions`, [unknown]);
      expect(response.statusCode).toBe(422);
      expect(detailOf(response)).toBe(authzMessages.unknownPermission(unknown));
      expect(idsOf(await request('GET', `/role/${role.id}/permissions`))).toEqual([kept.id]);
      const missing = await request('PUT', `/role/${randomUUID()}/permissions`, [kept.id]);
      expect(missing.statusCode).toBe(404);
      expect(detailOf(missing)).toBe(authzMessages.roleNotFound);
    });

    it('gain one permission at a time by POST; the same pair twice is a conflict', async () => {
      const role = await newRole();
      const permission = await newPermission();
      const body = { role_id: role.id, permission_id: permission.id };
      const added = await request('POST', '/role-permission', body);
      expect(added.statusCode).toBe(201);
      expect(added.json()).toMatchObject(body);
      const twice = await request('POST', '/role-permission', body);
      expect(twice.statusCode).toBe(409);
      expect(detailOf(twice)).toBe(authzMessages.roleAlreadyHasPermission);
      const unknown = randomUUID();
      const noPermission = await request('POST', '/role-permission', { role_id: role.id, permission_id: unknown });
      expect(noPermission.statusCode).toBe(422);
      expect(detailOf(noPermission)).toBe(authzMessages.unknownPermission(unknown));
    });

    it('end up as exactly one of the sets when PUTs race', async () => {
      const role = await newRole();
      const pool = await Promise.all(Array.from({ length: 5 }, () => newPermission()));
      const sets = Array.from({ length: 8 }, (_, index) =>
        pool.filter((_, position) => (index >> position) % 2 === 1 || position === index % 5).map((p) => p.id),
      );
      const responses = await Promise.all(sets.map((set) => request('PUT', `/role/${role.id}/permissions`, set)));
      for (const response of responses) expect(response.statusCode, response.body).toBe(200);
      const final = idsOf(await request('GET', `/role/${role.id}/permissions`));
      expect(sets.map((set) => [...set].sort())).toContainEqual(final);
    });
  });

  describe('enforcement', () => {
    it('grants a permission through a role and takes it away on the very next request', async () => {
      const support = await createUser(ctx);
      const listUsers = () => ctx.app.inject({ method: 'GET', url: '/api/v1/users/', headers: support.headers });
      expect((await listUsers()).statusCode).toBe(403);

      const role = await newRole('support-desk');
      const usersRead = await permissionIdOf(ctx, PERMISSIONS.usersRead);
      await request('PUT', `/role/${role.id}/permissions`, [usersRead]);
      await request('PUT', `/user/${support.id}/roles`, [role.id]);
      expect((await listUsers()).statusCode).toBe(200);
      // Reading is not writing.
      const write = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/v1/users/${admin.id}`,
        headers: support.headers,
      });
      expect(write.statusCode).toBe(403);

      await request('PUT', `/role/${role.id}/permissions`, []);
      expect((await listUsers()).statusCode).toBe(403);
      await request('PUT', `/role/${role.id}/permissions`, [usersRead]);
      expect((await listUsers()).statusCode).toBe(200);
      await request('PUT', `/user/${support.id}/roles`, []);
      expect((await listUsers()).statusCode).toBe(403);
      await request('PUT', `/user/${support.id}/roles`, [role.id]);
      expect((await listUsers()).statusCode).toBe(200);
      await request('DELETE', `/roles/${role.id}`);
      expect((await listUsers()).statusCode).toBe(403);
    });

    it('lets a role holder manage roles but never make a superuser', async () => {
      const operator = await createUser(ctx);
      await createRole(ctx, { grants: [PERMISSIONS.rolesWrite, PERMISSIONS.usersWrite], userIds: [operator.id] });
      const target = await createUser(ctx);
      const promote = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/v1/users/${target.id}`,
        headers: operator.headers,
        payload: { is_superuser: true },
      });
      expect(promote.statusCode).toBe(403);
      expect(detailOf(promote)).toBe(userMessages.notEnoughPrivileges);
      expect((await request('POST', '/roles', { name: `op-${randomUUID()}` }, operator)).statusCode).toBe(201);
    });

    it('follows the superuser flag as it is now, not as it was at login', async () => {
      const boss = await createUser(ctx, { isSuperuser: true });
      expect((await request('GET', '/roles', undefined, boss)).statusCode).toBe(200);
      await ctx.app.inject({
        method: 'PATCH',
        url: `/api/v1/users/${boss.id}`,
        headers: admin.headers,
        payload: { is_superuser: false },
      });
      expect((await request('GET', '/roles', undefined, boss)).statusCode).toBe(403);
    });
  });

  describe('GET /users/me', () => {
    it("carries the caller's role names, and other user answers do not", async () => {
      const member = await createUser(ctx);
      const me = () => ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: member.headers });
      expect((await me()).json()).toMatchObject({ id: member.id, roles: [] });
      await createRole(ctx, { name: 'download_sales_report', userIds: [member.id] });
      await createRole(ctx, { name: 'analyst', userIds: [member.id] });
      expect((await me()).json<{ roles: string[] }>().roles).toEqual(['analyst', 'download_sales_report']);

      const byId = await ctx.app.inject({ method: 'GET', url: `/api/v1/users/${member.id}`, headers: member.headers });
      expect(byId.json()).not.toHaveProperty('roles');
      const token = await ctx.app.inject({ method: 'POST', url: '/api/v1/login/test-token', headers: member.headers });
      expect(token.json()).not.toHaveProperty('roles');
    });
  });
});
