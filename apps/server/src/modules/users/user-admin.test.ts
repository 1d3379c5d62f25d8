import { USER_IDS_MAX, userListMessages, userMessages } from '@dataplatform/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, createUser, detailOf, login, loginRequest, useTestContext } from '../../../test/harness.js';
import { type UserBody, userRequests } from '../../../test/user-requests.js';
import { users } from '../../db/schema/index.js';

describe('users: administration', () => {
  const { ctx, admin } = useTestContext();
  const { me, call } = userRequests(ctx);

  describe('GET /users/', () => {
    it('pages through every user with skip and limit, answering {data, count}', async () => {
      for (let i = 0; i < 3; i += 1) await createUser(ctx);
      const all = await call('GET', '/users/?limit=1000', admin.headers);
      expect(all.statusCode).toBe(200);
      const everyone = all.json<{ data: UserBody[]; count: number }>();
      expect(everyone.count).toBe(everyone.data.length);
      expect(everyone.count).toBeGreaterThanOrEqual(4);
      const dbCount = await ctx.database.db.$count(users);
      expect(everyone.count).toBe(dbCount);

      const page = await call('GET', '/users/?skip=1&limit=2', admin.headers);
      const body = page.json<{ data: UserBody[]; count: number }>();
      expect(body.count).toBe(everyone.count);
      expect(body.data.map((u) => u.id)).toEqual(everyone.data.slice(1, 3).map((u) => u.id));
      expect(body.data[0]).not.toHaveProperty('hashed_password');

      const beyond = await call('GET', `/users/?skip=${everyone.count}&limit=10`, admin.headers);
      expect(beyond.json()).toEqual({ data: [], count: everyone.count });
    });

    it('refuses plain users (403) and anonymous callers (401)', async () => {
      const user = await createUser(ctx);
      const asUser = await call('GET', '/users/', user.headers);
      expect(asUser.statusCode).toBe(403);
      expect(asUser.json()).toEqual({ detail: userMessages.notEnoughPrivileges, code: 'permission_denied' });
      expect((await call('GET', '/users/')).statusCode).toBe(401);
    });

    it('searches e-mail and full name with q, case-insensitively, paged, with the matching count', async () => {
      const tag = Math.random().toString(36).slice(2, 8);
      const byEmail = await createUser(ctx, { email: `finder-${tag}-one@example.com`, fullName: 'Someone Else' });
      const byName = await createUser(ctx, { fullName: `Ada ${tag.toUpperCase()} Lovelace` });
      const third = await createUser(ctx, { email: `finder-${tag}-two@example.com` });

      const all = await call('GET', `/users/?q=${encodeURIComponent(`  ${tag.toUpperCase()} `)}`, admin.headers);
      expect(all.statusCode).toBe(200);
      const found = all.json<{ data: UserBody[]; count: number }>();
      expect(found.count).toBe(3);
      expect(found.data.map((u) => u.id)).toEqual([byEmail.id, byName.id, third.id]);

      const second = await call('GET', `/users/?q=${tag}&skip=1&limit=1`, admin.headers);
      expect(second.json()).toMatchObject({ count: 3, data: [{ id: byName.id }] });

      const onlyEmail = await call('GET', `/users/?q=finder-${tag}-T`, admin.headers);
      expect(onlyEmail.json<{ data: UserBody[] }>().data.map((u) => u.id)).toEqual([third.id]);

      const none = await call('GET', `/users/?q=${tag}-nobody`, admin.headers);
      expect(none.json()).toEqual({ data: [], count: 0 });
    });

    it('takes % and _ in q literally, and a blank q as no filter', async () => {
      const tag = Math.random().toString(36).slice(2, 8);
      const literal = await createUser(ctx, { email: `under_${tag}%x@example.com` });
      await createUser(ctx, { email: `underx${tag}yx@example.com` });
      const search = (q: string) => call('GET', `/users/?q=${encodeURIComponent(q)}`, admin.headers);

      for (const q of [`under_${tag}`, `${tag}%`, `_${tag}%x`]) {
        const body = (await search(q)).json<{ data: UserBody[]; count: number }>();
        expect(
          body.data.map((u) => u.id),
          q,
        ).toEqual([literal.id]);
        expect(body.count, q).toBe(1);
      }
      expect((await search('%')).json<{ data: UserBody[] }>().data.map((u) => u.id)).toEqual([literal.id]);

      const everyone = (await call('GET', '/users/?limit=1000', admin.headers)).json<{ count: number }>();
      const blank = (await call('GET', '/users/?q=%20%20&limit=1000', admin.headers)).json<{ count: number }>();
      expect(blank.count).toBe(everyone.count);
    });

    it('refuses a q over the length bound with a 422, and q from plain users (403)', async () => {
      const long = await call('GET', `/users/?q=${'a'.repeat(255)}`, admin.headers);
      expect(long.statusCode).toBe(422);
      expect(long.json<{ detail: { loc: unknown[]; msg: string }[] }>().detail[0]).toMatchObject({
        loc: ['query', 'q'],
        msg: 'Search text must be at most 254 characters',
      });
      expect((await call('GET', `/users/?q=${'a'.repeat(254)}`, admin.headers)).statusCode).toBe(200);
      const user = await createUser(ctx);
      expect((await call('GET', '/users/?q=a', user.headers)).statusCode).toBe(403);
      expect((await call('GET', '/users/?q=a')).statusCode).toBe(401);
    });

    it('reads the users ids names in one request, with q and paging on top, unknown ids left out', async () => {
      const tag = Math.random().toString(36).slice(2, 8);
      const first = await createUser(ctx, { email: `ids-${tag}-a@example.com` });
      const second = await createUser(ctx, { email: `ids-${tag}-b@example.com` });
      await createUser(ctx, { email: `ids-${tag}-c@example.com` });
      const unknown = '00000000-0000-4000-8000-000000000000';
      const ids = [second.id, unknown, first.id].join(',');

      const named = await call('GET', `/users/?ids=${ids}`, admin.headers);
      expect(named.statusCode).toBe(200);
      const body = named.json<{ data: UserBody[]; count: number }>();
      expect(body.count).toBe(2);
      expect(body.data.map((u) => u.id)).toEqual([first.id, second.id]);

      const paged = await call('GET', `/users/?ids=${ids}&skip=1&limit=1`, admin.headers);
      expect(paged.json()).toMatchObject({ count: 2, data: [{ id: second.id }] });
      const searched = await call('GET', `/users/?ids=${ids}&q=${tag}-B`, admin.headers);
      expect(searched.json()).toMatchObject({ count: 1, data: [{ id: second.id }] });
      // Spaces and empty items around the commas are ignored; an empty list is no filter.
      const spaced = await call('GET', `/users/?ids=${encodeURIComponent(` ${first.id} ,, `)}`, admin.headers);
      expect(spaced.json()).toMatchObject({ count: 1, data: [{ id: first.id }] });
      const everyone = (await call('GET', '/users/?limit=1', admin.headers)).json<{ count: number }>();
      expect((await call('GET', '/users/?ids=,&limit=1', admin.headers)).json()).toMatchObject(everyone);
    });

    it('refuses ids that are not uuids, or more than USER_IDS_MAX of them, with a 422 on query.ids', async () => {
      const user = await createUser(ctx);
      const refused = async (ids: string, msg: string) => {
        const response = await call('GET', `/users/?ids=${ids}`, admin.headers);
        expect(response.statusCode, ids.slice(0, 40)).toBe(422);
        expect(response.json<{ detail: { loc: unknown[]; msg: string }[] }>().detail[0]).toMatchObject({ msg });
        expect(response.json<{ detail: { loc: unknown[] }[] }>().detail[0]?.loc.slice(0, 2)).toEqual(['query', 'ids']);
      };
      await refused(`${user.id},not-a-uuid`, userListMessages.invalidUserId);
      await refused(Array.from({ length: USER_IDS_MAX + 1 }, () => user.id).join(','), userListMessages.tooManyIds);
      const atMost = Array.from({ length: USER_IDS_MAX }, () => user.id).join(',');
      expect((await call('GET', `/users/?ids=${atMost}`, admin.headers)).json()).toMatchObject({ count: 1 });
      expect((await call('GET', `/users/?ids=${user.id}`, user.headers)).statusCode).toBe(403);
    });

    it('refuses paging values out of range with a 422', async () => {
      for (const query of ['skip=-1', 'limit=0', 'limit=1001', 'skip=abc', 'limit=2.5']) {
        const response = await call('GET', `/users/?${query}`, admin.headers);
        expect(response.statusCode, query).toBe(422);
        expect(response.json<{ detail: { loc: unknown[] }[] }>().detail[0]?.loc[0]).toBe('query');
      }
    });
  });

  describe('POST /users/', () => {
    it('lets a superuser create a user, active and superuser flags included', async () => {
      const response = await call('POST', '/users/', admin.headers, {
        email: 'Created.By.Admin@Example.com',
        password: 'created-password-1',
        full_name: 'Made By Admin',
        is_superuser: true,
      });
      expect(response.statusCode).toBe(201);
      const created = response.json<UserBody>();
      expect(created).toMatchObject({
        email: 'created.by.admin@example.com',
        full_name: 'Made By Admin',
        is_active: true,
        is_superuser: true,
      });
      expect(created).not.toHaveProperty('password');
      expect((await loginRequest(ctx, 'created.by.admin@example.com', 'created-password-1')).statusCode).toBe(200);

      const inactive = await call('POST', '/users/', admin.headers, {
        email: 'created-inactive@example.com',
        password: 'created-password-1',
        is_active: false,
      });
      expect(inactive.json<UserBody>()).toMatchObject({ is_active: false, is_superuser: false, full_name: null });
      expect(detailOf(await loginRequest(ctx, 'created-inactive@example.com', 'created-password-1'))).toBe(
        'Inactive user',
      );
    });

    it('answers 409 for a taken address in any letter case', async () => {
      const user = await createUser(ctx);
      const response = await call('POST', '/users/', admin.headers, {
        email: user.email.toUpperCase(),
        password: 'created-password-1',
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ detail: userMessages.emailTaken, code: 'email_taken' });
    });

    it('validates the body', async () => {
      const response = await call('POST', '/users/', admin.headers, { email: 'valid-address@example.com' });
      expect(response.statusCode).toBe(422);
      expect(response.json<{ detail: { loc: unknown[]; msg: string }[] }>().detail[0]).toMatchObject({
        loc: ['body', 'password'],
        msg: 'Password is required',
      });
    });

    it('refuses plain users (403) and anonymous callers (401)', async () => {
      const user = await createUser(ctx);
      const body = { email: 'should-not-exist@example.com', password: 'created-password-1', is_superuser: true };
      expect((await call('POST', '/users/', user.headers, body)).statusCode).toBe(403);
      expect((await call('POST', '/users/', {}, body)).statusCode).toBe(401);
      const rows = await ctx.database.db.select().from(users).where(eq(users.email, body.email));
      expect(rows).toHaveLength(0);
    });
  });

  describe('/users/{user_id}', () => {
    it('lets a superuser read anyone and a plain user only itself', async () => {
      const user = await createUser(ctx);
      const other = await createUser(ctx);
      const byAdmin = await call('GET', `/users/${user.id}`, admin.headers);
      expect(byAdmin.statusCode).toBe(200);
      expect(byAdmin.json<UserBody>()).toMatchObject({ id: user.id, email: user.email });
      const own = await call('GET', `/users/${user.id}`, user.headers);
      expect(own.statusCode).toBe(200);
      expect(own.json<UserBody>().id).toBe(user.id);
      const others = await call('GET', `/users/${other.id}`, user.headers);
      expect(others.statusCode).toBe(403);
      expect(others.json()).toEqual({ detail: userMessages.notEnoughPrivileges, code: 'permission_denied' });
      expect((await call('GET', `/users/${user.id}`)).statusCode).toBe(401);
    });

    it('answers 404 for an unknown id and 422 for one that is not a uuid', async () => {
      const unknown = '3f0e9a8c-1b2d-4c5e-8f70-123456789abc';
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const missing = await call(
          method,
          `/users/${unknown}`,
          admin.headers,
          method === 'PATCH' ? { full_name: 'X Y Z' } : undefined,
        );
        expect(missing.statusCode, method).toBe(404);
        expect(missing.json()).toEqual({ detail: userMessages.notFound, code: 'not_found' });
        const malformed = await call(
          method,
          '/users/not-a-uuid',
          admin.headers,
          method === 'PATCH' ? { full_name: 'X Y Z' } : undefined,
        );
        expect(malformed.statusCode, method).toBe(422);
        expect(malformed.json<{ detail: { loc: unknown[] }[] }>().detail[0]?.loc).toEqual(['path', 'user_id']);
      }
    });

    it('lets a superuser update a user', async () => {
      const user = await createUser(ctx);
      const response = await call('PATCH', `/users/${user.id}`, admin.headers, {
        full_name: 'Updated By Admin',
        email: `UPDATED-${user.email}`,
        is_superuser: true,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json<UserBody>()).toMatchObject({
        id: user.id,
        full_name: 'Updated By Admin',
        email: `updated-${user.email}`,
        is_superuser: true,
      });
      expect((await me(user.headers)).json<UserBody>().is_superuser).toBe(true);
    });

    it('signs a user out everywhere when a superuser sets its password', async () => {
      const user = await createUser(ctx);
      const response = await call('PATCH', `/users/${user.id}`, admin.headers, { password: 'set-by-admin-1' });
      expect(response.statusCode).toBe(200);
      expect((await me(user.headers)).statusCode).toBe(401);
      expect((await loginRequest(ctx, user.email, 'set-by-admin-1')).statusCode).toBe(200);
    });

    it('answers 409 when the new address is taken', async () => {
      const user = await createUser(ctx);
      const other = await createUser(ctx);
      const response = await call('PATCH', `/users/${user.id}`, admin.headers, { email: other.email.toUpperCase() });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ detail: userMessages.emailTaken, code: 'email_taken' });
      expect((await me(user.headers)).json<UserBody>().email).toBe(user.email);
    });

    it('refuses updates from plain users, even of themselves, and anonymous callers', async () => {
      const user = await createUser(ctx);
      const other = await createUser(ctx);
      const self = await call('PATCH', `/users/${user.id}`, user.headers, { is_superuser: true });
      expect(self.statusCode).toBe(403);
      expect(self.json()).toEqual({ detail: userMessages.notEnoughPrivileges, code: 'permission_denied' });
      expect((await call('PATCH', `/users/${other.id}`, user.headers, { full_name: 'Hijacked' })).statusCode).toBe(403);
      expect((await call('PATCH', `/users/${other.id}`, {}, { full_name: 'Hijacked' })).statusCode).toBe(401);
      expect((await me(user.headers)).json<UserBody>().is_superuser).toBe(false);
      expect((await me(other.headers)).json<UserBody>().full_name).not.toBe('Hijacked');
    });

    it('does not let a superuser lock itself out', async () => {
      const superuser = await createUser(ctx, { isSuperuser: true });
      const demote = await call('PATCH', `/users/${superuser.id}`, superuser.headers, { is_superuser: false });
      expect(demote.statusCode).toBe(400);
      expect(demote.json()).toEqual({ detail: userMessages.cannotChangeOwnSuperuser, code: 'bad_request' });
      const deactivate = await call('PATCH', `/users/${superuser.id}`, superuser.headers, { is_active: false });
      expect(deactivate.statusCode).toBe(400);
      expect(deactivate.json()).toEqual({ detail: userMessages.cannotDeactivateSelf, code: 'bad_request' });
      expect((await me(superuser.headers)).json<UserBody>()).toMatchObject({ is_superuser: true, is_active: true });
    });

    it('does not let a superuser delete itself through /users/{id}: a 400 with a detail the dialog shows', async () => {
      const superuser = await createUser(ctx, { isSuperuser: true });
      const response = await call('DELETE', `/users/${superuser.id}`, superuser.headers);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: userMessages.cannotDeleteSelf, code: 'bad_request' });
      expect((await me(superuser.headers)).statusCode).toBe(200);
      // Changing the own name or e-mail through the same route is allowed; only the lock-outs are refused.
      const rename = await call('PATCH', `/users/${superuser.id}`, superuser.headers, {
        full_name: 'Still Me',
        is_active: true,
        is_superuser: true,
      });
      expect(rename.statusCode).toBe(200);
      expect(rename.json<UserBody>()).toMatchObject({ full_name: 'Still Me', is_active: true, is_superuser: true });
    });

    it('revokes the sessions of a deactivated user: reactivation does not revive the old token', async () => {
      const user = await createUser(ctx);
      const deactivate = await call('PATCH', `/users/${user.id}`, admin.headers, { is_active: false });
      expect(deactivate.statusCode).toBe(200);
      expect(deactivate.json<UserBody>().is_active).toBe(false);
      expect((await me(user.headers)).statusCode).toBe(401);
      expect(detailOf(await loginRequest(ctx, user.email, user.password))).toBe('Inactive user');

      expect((await call('PATCH', `/users/${user.id}`, admin.headers, { is_active: true })).statusCode).toBe(200);
      expect((await me(user.headers)).statusCode).toBe(401);
      expect((await me(bearer(await login(ctx, user.email, user.password)))).statusCode).toBe(200);
    });

    it('lets a superuser delete a user: its token dies at once', async () => {
      const user = await createUser(ctx);
      const response = await call('DELETE', `/users/${user.id}`, admin.headers);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect((await me(user.headers)).statusCode).toBe(401);
      expect((await call('GET', `/users/${user.id}`, admin.headers)).statusCode).toBe(404);
      expect((await call('DELETE', `/users/${user.id}`, admin.headers)).statusCode).toBe(404);
    });

    it('refuses deletion by plain users and anonymous callers', async () => {
      const user = await createUser(ctx);
      const other = await createUser(ctx);
      const asUser = await call('DELETE', `/users/${other.id}`, user.headers);
      expect(asUser.statusCode).toBe(403);
      expect(asUser.json()).toEqual({ detail: userMessages.notEnoughPrivileges, code: 'permission_denied' });
      expect((await call('DELETE', `/users/${user.id}`, user.headers)).statusCode).toBe(403);
      expect((await call('DELETE', `/users/${other.id}`)).statusCode).toBe(401);
      expect((await me(other.headers)).statusCode).toBe(200);
      expect((await me(user.headers)).statusCode).toBe(200);
    });
  });
});
