import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, loginRequest, type TestContext } from './harness.js';
import { isRecoveryMailTo, mailAfter, resetTokenFrom } from './mail.js';

/**
 * A person's whole life with an account, through the API alone: sign up, log in, change the
 * password, forget it, recover it through the mailed link, log in again, delete the account.
 */
describe('account journey', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const email = 'Journey.Person@Example.com';
  const storedEmail = email.toLowerCase();

  const logIn = (password: string) => loginRequest(ctx, email, password);

  it('signs up, changes and recovers the password, and deletes the account', async () => {
    const welcome = await mailAfter(
      ctx,
      (mail) => mail.to.includes(storedEmail),
      async () => {
        const signup = await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/users/signup',
          payload: {
            email,
            password: 'first-password',
            confirm_password: 'first-password',
            full_name: 'Journey Person',
          },
        });
        expect(signup.statusCode).toBe(201);
      },
    );
    expect(welcome.subject).toContain('Welcome');

    const firstLogin = await logIn('first-password');
    expect(firstLogin.statusCode).toBe(200);
    const firstToken = firstLogin.json<{ access_token: string }>().access_token;
    const profile = await ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(firstToken) });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ email: storedEmail, full_name: 'Journey Person', is_superuser: false });

    const change = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me/password',
      headers: bearer(firstToken),
      payload: {
        current_password: 'first-password',
        new_password: 'second-password',
        confirm_password: 'second-password',
      },
    });
    expect(change.statusCode).toBe(200);
    expect((await logIn('first-password')).statusCode).toBe(400);
    expect((await logIn('second-password')).statusCode).toBe(200);

    const recoveryMail = await mailAfter(ctx, isRecoveryMailTo(storedEmail), async () => {
      const recovery = await ctx.app.inject({ method: 'POST', url: `/api/v1/password-recovery/${email}` });
      expect(recovery.statusCode).toBe(200);
    });
    const link = new URL(/https?:\/\/\S+\/reset-password\?token=\S+/.exec(recoveryMail.text)![0]);
    expect(`${link.origin}${link.pathname}`).toBe(`${ctx.config.frontendHost}/reset-password`);
    const token = link.searchParams.get('token')!;
    expect(token).toBe(resetTokenFrom(ctx, recoveryMail.text));

    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/reset-password/',
      payload: { token, new_password: 'third-password' },
    });
    expect(reset.statusCode).toBe(200);
    // The reset signed out every session, the one from the first login included.
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(firstToken) })).statusCode,
    ).toBe(401);
    expect((await logIn('second-password')).statusCode).toBe(400);
    const finalLogin = await logIn('third-password');
    expect(finalLogin.statusCode).toBe(200);
    const finalToken = finalLogin.json<{ access_token: string }>().access_token;

    const deletion = await ctx.app.inject({ method: 'DELETE', url: '/api/v1/users/me', headers: bearer(finalToken) });
    expect(deletion.statusCode).toBe(204);
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(finalToken) })).statusCode,
    ).toBe(401);
    const afterDeletion = await logIn('third-password');
    expect(afterDeletion.statusCode).toBe(400);
    expect(afterDeletion.json()).toEqual({ detail: 'Incorrect email or password', code: 'incorrect_credentials' });
  });
});
