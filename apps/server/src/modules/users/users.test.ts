import { messages, USER_IDS_MAX, userListMessages, userMessages } from '@dataplatform/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, createUser, detailOf, login, loginRequest, useTestContext } from '../../../test/harness.js';
import { mailAfter, verificationTokenFrom } from '../../../test/mail.js';
import { users } from '../../db/schema/index.js';

interface UserBody {
  id: string;
  email: string;
  full_name: string | null;
  is_active: boolean;
  is_superuser: boolean;
  email_verified: boolean;
  created_at: string;
}

const MISSING = Symbol('missing');
/** A valid sign-up body; an override of MISSING leaves that field out. */
function signupBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    email: `new-${Math.random().toString(36).slice(2, 10)}@example.com`,
    password: 'long-enough-1',
    confirm_password: 'long-enough-1',
    full_name: 'New Person',
    ...overrides,
  };
  for (const [key, value] of Object.entries(body)) if (value === MISSING) delete body[key];
  return body;
}

describe('users', () => {
  const { ctx, admin } = useTestContext();

  const signup = (payload: unknown) =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/users/signup', payload: payload as object });
  const me = (headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers });
  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string> = {},
    payload?: object,
  ) => ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

  describe('POST /users/signup', () => {
    it('creates an active, non-superuser account that can log in, and mails a welcome', async () => {
      const body = signupBody({ email: 'Fresh.Person@Example.COM', is_superuser: true, is_active: false });
      const mail = await mailAfter(
        ctx,
        (m) => m.to.includes('fresh.person@example.com'),
        async () => {
          const response = await signup(body);
          expect(response.statusCode).toBe(201);
          expect(response.json()).toEqual({ message: userMessages.signupReceived });
        },
      );
      expect(mail.subject).toBe('Welcome to Data Platform');
      expect(mail.text).toContain('New Person');

      const token = await login(ctx, 'fresh.person@example.com', 'long-enough-1');
      const profile = await me(bearer(token));
      expect(profile.json<UserBody>()).toMatchObject({
        email: 'fresh.person@example.com',
        full_name: 'New Person',
        is_active: true,
        is_superuser: false,
      });
    });

    it.each([
      ['a missing email', { email: MISSING }, 'Email is required'],
      ['an empty email', { email: '' }, 'Email is required'],
      ['a malformed email', { email: 'not-an-email' }, 'Invalid email address'],
      ['a missing password', { password: MISSING }, 'Password is required'],
      ['an empty password', { password: '', confirm_password: '' }, 'Password is required'],
      [
        'a short password',
        { password: 'short12', confirm_password: 'short12' },
        'Password must be at least 8 characters',
      ],
      ['a missing confirmation', { confirm_password: MISSING }, 'Password confirmation is required'],
      ['an empty confirmation', { confirm_password: '' }, 'Password confirmation is required'],
      ['a different confirmation', { confirm_password: 'long-enough-2' }, 'The passwords do not match'],
      ['a missing full name', { full_name: MISSING }, 'Full Name is required'],
      ['a blank full name', { full_name: '   ' }, 'Full Name is required'],
    ])('refuses %s with its AUTH-VALID or AUTH-SIGNUP-2 message', async (_case, overrides, message) => {
      const body = signupBody(overrides);
      const response = await signup(body);
      expect(response.statusCode).toBe(422);
      expect(detailOf(response)).toBe(message);
      if (typeof body.email === 'string' && body.email.includes('@')) {
        const rows = await ctx.database.db.select().from(users).where(eq(users.email, body.email));
        expect(rows).toHaveLength(0);
      }
    });

    it('puts the field of each problem in loc', async () => {
      const response = await signup(signupBody({ confirm_password: 'long-enough-2' }));
      expect(response.json()).toEqual({
        detail: [{ loc: ['body', 'confirm_password'], msg: 'The passwords do not match', type: 'custom' }],
        code: 'validation_failed',
      });
    });

    it('answers a registered address exactly as a new one, and mails its owner instead', async () => {
      const owner = await createUser(ctx, { fullName: 'Original Owner' });
      const fresh = await signup(signupBody({ email: 'somebody-new@example.com' }));
      const mail = await mailAfter(
        ctx,
        (m) => m.to.includes(owner.email),
        async () => {
          const again = await signup(
            signupBody({
              email: owner.email.toUpperCase(),
              password: 'attacker-password',
              confirm_password: 'attacker-password',
              full_name: 'Someone Else',
            }),
          );
          expect(again.statusCode).toBe(fresh.statusCode);
          expect(again.body).toBe(fresh.body);
        },
      );
      expect(mail.subject.toLowerCase()).toContain('sign-up attempt');
      expect(mail.text).toContain(`${ctx.config.frontendHost}/recover-password`);
      expect(
        ctx.smtp.received.filter((m) => m.to.includes(owner.email) && m.subject.startsWith('Welcome')),
      ).toHaveLength(0);

      // The account is untouched: same password, same name, still one row.
      expect((await loginRequest(ctx, owner.email, 'attacker-password')).statusCode).toBe(400);
      expect((await me(owner.headers)).json<UserBody>().full_name).toBe('Original Owner');
      const rows = await ctx.database.db.select().from(users).where(eq(users.email, owner.email));
      expect(rows).toHaveLength(1);
    });

    it('keeps one account when the same new address signs up twice at once', async () => {
      const email = 'twice-at-once@example.com';
      const [first, second] = await Promise.all([signup(signupBody({ email })), signup(signupBody({ email }))]);
      expect(first.statusCode).toBe(201);
      expect(second.body).toBe(first.body);
      const rows = await ctx.database.db.select().from(users).where(eq(users.email, email));
      expect(rows).toHaveLength(1);
    });
  });

  describe('/users/me', () => {
    it('reads the signed-in user and refuses anonymous callers', async () => {
      const user = await createUser(ctx, { fullName: 'Reader Person' });
      const response = await me(user.headers);
      expect(response.statusCode).toBe(200);
      expect(response.json<UserBody>()).toMatchObject({ id: user.id, email: user.email, full_name: 'Reader Person' });
      expect(response.json()).not.toHaveProperty('hashed_password');
      const anonymous = await me({});
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ detail: 'Not authenticated', code: 'not_authenticated' });
    });

    it('updates own name at once and e-mail once the new address is verified; the new address then logs in', async () => {
      const user = await createUser(ctx);
      const newEmail = `Renamed-${user.id.slice(0, 8)}@Example.com`;
      const confirmMail = await mailAfter(
        ctx,
        (mail) => mail.to.includes(newEmail.toLowerCase()),
        async () => {
          const response = await call('PATCH', '/users/me', user.headers, {
            full_name: 'Renamed Person',
            email: newEmail,
          });
          expect(response.statusCode).toBe(200);
          expect(response.json<UserBody>()).toMatchObject({ full_name: 'Renamed Person', email: user.email });
        },
      );
      const followed = await call(
        'POST',
        '/verify-email/',
        {},
        { token: verificationTokenFrom(ctx, confirmMail.text) },
      );
      expect(followed.statusCode).toBe(200);
      expect((await me(user.headers)).json<UserBody>().email).toBe(newEmail.toLowerCase());
      expect((await loginRequest(ctx, newEmail, user.password)).statusCode).toBe(200);
      expect((await loginRequest(ctx, user.email, user.password)).statusCode).toBe(400);
    });

    it('refuses flags a person may not set on themselves with a 422 naming the field', async () => {
      const user = await createUser(ctx);
      for (const field of ['is_superuser', 'is_active']) {
        const response = await call('PATCH', '/users/me', user.headers, { [field]: true });
        expect(response.statusCode).toBe(422);
        const body = response.json<{ detail: { loc: unknown[]; msg: string; type: string }[] }>();
        expect(body.detail[0]?.loc).toEqual(['body', field]);
        expect(body.detail[0]?.msg).toContain(field);
      }
      const afterwards = await me(user.headers);
      expect(afterwards.json<UserBody>().is_superuser).toBe(false);
    });

    it('refuses a profile name over 30 characters and a malformed e-mail', async () => {
      const user = await createUser(ctx);
      const long = await call('PATCH', '/users/me', user.headers, { full_name: 'x'.repeat(31) });
      expect(long.statusCode).toBe(422);
      expect(long.json<{ detail: { loc: unknown[] }[] }>().detail[0]?.loc).toEqual(['body', 'full_name']);
      const bad = await call('PATCH', '/users/me', user.headers, { email: 'nope' });
      expect(bad.statusCode).toBe(422);
      expect(detailOf(bad)).toBe('Invalid email address');
      expect((await call('PATCH', '/users/me', user.headers, { full_name: 'x'.repeat(30) })).statusCode).toBe(200);
    });

    it('refuses an address another account has, in any letter case (409)', async () => {
      const user = await createUser(ctx);
      const other = await createUser(ctx);
      const response = await call('PATCH', '/users/me', user.headers, { email: other.email.toUpperCase() });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ detail: userMessages.emailTaken, code: 'email_taken' });
      // Keeping one's own address is not a conflict.
      expect((await call('PATCH', '/users/me', user.headers, { email: user.email.toUpperCase() })).statusCode).toBe(
        200,
      );
    });

    it('lets one of two accounts racing for the same address have it; the other gets 409', async () => {
      const first = await createUser(ctx);
      const second = await createUser(ctx);
      const email = `raced-${first.id.slice(0, 8)}@example.com`;
      const tokens: string[] = [];
      for (const user of [first, second]) {
        const mail = await mailAfter(
          ctx,
          (received) => received.to.includes(email),
          () => call('PATCH', '/users/me', user.headers, { email }),
        );
        tokens.push(verificationTokenFrom(ctx, mail.text));
      }
      // Both links are followed at once: the address goes to one account only.
      const responses = await Promise.all(tokens.map((token) => call('POST', '/verify-email/', {}, { token })));
      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
      const loser = responses.find((response) => response.statusCode === 409)!;
      expect(loser.json()).toEqual({ detail: userMessages.emailTaken, code: 'email_taken' });
    });

    it('deletes the own account: its token dies and it cannot log in', async () => {
      const user = await createUser(ctx);
      const response = await call('DELETE', '/users/me', user.headers);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect((await me(user.headers)).statusCode).toBe(401);
      expect((await loginRequest(ctx, user.email, user.password)).statusCode).toBe(400);
      expect((await call('GET', `/users/${user.id}`, admin.headers)).statusCode).toBe(404);
    });

    it('does not let a superuser delete itself (403 with a clear detail)', async () => {
      const superuser = await createUser(ctx, { isSuperuser: true });
      const response = await call('DELETE', '/users/me', superuser.headers);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        detail: 'Super users are not allowed to delete themselves',
        code: 'permission_denied',
      });
      expect((await me(superuser.headers)).statusCode).toBe(200);
      expect((await call('DELETE', `/users/${superuser.id}`, superuser.headers)).statusCode).toBe(400);
      expect((await me(superuser.headers)).statusCode).toBe(200);
    });

    it('refuses anonymous updates and deletions', async () => {
      expect((await call('PATCH', '/users/me', {}, { full_name: 'Nobody' })).statusCode).toBe(401);
      expect((await call('DELETE', '/users/me')).statusCode).toBe(401);
    });
  });

  describe('POST /users/signup refuses the most common passwords (PWD-COMMON-1)', () => {
    it.each(['12345678', 'password', 'PASSWORD1', 'qwerty123', 'trustno1'])(
      'refuses %s on the password field and creates nothing',
      async (common) => {
        const email = `common-${common.toLowerCase()}@example.com`;
        const response = await signup(signupBody({ email, password: common, confirm_password: common }));
        expect(response.statusCode).toBe(422);
        expect(response.json()).toMatchObject({
          detail: [{ loc: ['body', 'password'], msg: messages.passwordTooCommon }],
          code: 'validation_failed',
        });
        expect(await ctx.database.db.select().from(users).where(eq(users.email, email))).toEqual([]);
      },
    );

    it('takes a password that is not on the list', async () => {
      expect(
        (
          await signup(
            signupBody({
              email: 'uncommon@example.com',
              password: 'quarterly-ledger-77',
              confirm_password: 'quarterly-ledger-77',
            }),
          )
        ).statusCode,
      ).toBe(201);
    });
  });

  describe('PATCH /users/me/password', () => {
    const change = (headers: Record<string, string>, body: Record<string, unknown>) =>
      call('PATCH', '/users/me/password', headers, body);

    it('changes the password: other sessions are revoked, the caller stays signed in', async () => {
      const user = await createUser(ctx);
      const otherSession = await login(ctx, user.email, user.password);
      const response = await change(user.headers, {
        current_password: user.password,
        new_password: 'changed-password-1',
        confirm_password: 'changed-password-1',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Password updated successfully' });
      expect((await me(user.headers)).statusCode).toBe(200);
      expect((await me(bearer(otherSession))).statusCode).toBe(401);
      expect((await loginRequest(ctx, user.email, 'changed-password-1')).statusCode).toBe(200);
      expect((await loginRequest(ctx, user.email, user.password)).statusCode).toBe(400);
    });

    it('refuses one of the most common passwords on the field and keeps the old one (PWD-COMMON-1)', async () => {
      const user = await createUser(ctx);
      const response = await change(user.headers, {
        current_password: user.password,
        new_password: 'Football1',
        confirm_password: 'Football1',
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        detail: [{ loc: ['body', 'new_password'], msg: messages.passwordTooCommon }],
      });
      expect((await loginRequest(ctx, user.email, user.password)).statusCode).toBe(200);
    });

    it('requires the right current password', async () => {
      const user = await createUser(ctx);
      const missing = await change(user.headers, {
        new_password: 'changed-password-1',
        confirm_password: 'changed-password-1',
      });
      expect(missing.statusCode).toBe(422);
      expect(missing.json<{ detail: { loc: unknown[]; msg: string }[] }>().detail[0]).toMatchObject({
        loc: ['body', 'current_password'],
        msg: 'Password is required',
      });
      const wrong = await change(user.headers, {
        current_password: 'not-my-password',
        new_password: 'changed-password-1',
        confirm_password: 'changed-password-1',
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ detail: userMessages.incorrectPassword, code: 'incorrect_password' });
      expect((await loginRequest(ctx, user.email, user.password)).statusCode).toBe(200);
    });

    it('refuses the current password as the new one, a short one and a mismatched confirmation', async () => {
      const user = await createUser(ctx);
      const same = await change(user.headers, {
        current_password: user.password,
        new_password: user.password,
        confirm_password: user.password,
      });
      expect(same.statusCode).toBe(400);
      expect(same.json()).toEqual({ detail: userMessages.samePassword, code: 'bad_request' });
      const short = await change(user.headers, {
        current_password: user.password,
        new_password: 'short',
        confirm_password: 'short',
      });
      expect(short.statusCode).toBe(422);
      expect(detailOf(short)).toBe('Password must be at least 8 characters');
      const mismatch = await change(user.headers, {
        current_password: user.password,
        new_password: 'changed-password-1',
        confirm_password: 'changed-password-2',
      });
      expect(mismatch.statusCode).toBe(422);
      expect(detailOf(mismatch)).toBe('The passwords do not match');
      expect((await loginRequest(ctx, user.email, user.password)).statusCode).toBe(200);
    });

    it('refuses anonymous callers', async () => {
      const response = await call(
        'PATCH',
        '/users/me/password',
        {},
        {
          current_password: 'whatever-1',
          new_password: 'changed-password-1',
          confirm_password: 'changed-password-1',
        },
      );
      expect(response.statusCode).toBe(401);
    });
  });

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
