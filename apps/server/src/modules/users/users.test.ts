import { messages, userMessages } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { bearer, createUser, detailOf, login, loginRequest, useTestContext } from '../../../test/harness.js';
import { mailAfter, verificationTokenFrom } from '../../../test/mail.js';
import { type UserBody, userRequests } from '../../../test/user-requests.js';

// Sign-up: signup.test.ts; the admin's user list and edits: user-admin.test.ts.
describe('users: the signed-in user', () => {
  const { ctx, admin } = useTestContext();
  const { me, call } = userRequests(ctx);

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
});
