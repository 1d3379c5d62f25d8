import { authMessages } from '@dataplatform/contract';
import { base64url, decodeJwt, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { expectUnauthorized, MINUTE, testToken } from '../../../test/auth-requests.js';
import {
  bearer,
  createUser,
  detailOf,
  login,
  loginRequest,
  useTestContext,
  type TestUser,
} from '../../../test/harness.js';
import { deriveKey } from '../../lib/keys.js';

// Password recovery and reset: password-recovery.test.ts; the rate limits: rate-limits.test.ts.
describe('auth', () => {
  const { ctx, admin } = useTestContext();

  describe('POST /login/access-token', () => {
    it('logs in with a form body and answers a bearer token naming the user', async () => {
      const user = await createUser(ctx);
      const response = await loginRequest(ctx, user.email, user.password);
      expect(response.statusCode).toBe(200);
      const body = response.json<{ access_token: string; token_type: string }>();
      expect(body.token_type).toBe('bearer');
      expect(decodeJwt(body.access_token).sub).toBe(user.id);
      const me = await testToken(ctx, bearer(body.access_token));
      expect(me.statusCode).toBe(200);
      expect(me.json<{ id: string }>().id).toBe(user.id);
    });

    it('logs in with a JSON body too, and with the e-mail in any letter case', async () => {
      const user = await createUser(ctx);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/login/access-token',
        payload: { username: `  ${user.email.toUpperCase()} `, password: user.password },
      });
      expect(response.statusCode).toBe(200);
      expect(decodeJwt(response.json<{ access_token: string }>().access_token).sub).toBe(user.id);
    });

    it('answers a wrong password and an unknown e-mail with the same 400', async () => {
      const user = await createUser(ctx);
      const wrongPassword = await loginRequest(ctx, user.email, 'not-the-password');
      const unknownEmail = await loginRequest(ctx, 'nobody-here@example.com', user.password);
      expect(wrongPassword.statusCode).toBe(400);
      expect(wrongPassword.json()).toEqual({
        detail: authMessages.incorrectCredentials,
        code: 'incorrect_credentials',
      });
      expect(authMessages.incorrectCredentials).toBe('Incorrect email or password');
      expect(unknownEmail.statusCode).toBe(wrongPassword.statusCode);
      expect(unknownEmail.body).toBe(wrongPassword.body);
    });

    it('tells an inactive user so only when the password is right', async () => {
      const user = await createUser(ctx, { isActive: false });
      const right = await loginRequest(ctx, user.email, user.password);
      expect(right.statusCode).toBe(400);
      expect(right.json()).toEqual({ detail: 'Inactive user', code: 'inactive_user' });
      const wrong = await loginRequest(ctx, user.email, 'not-the-password');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ detail: 'Incorrect email or password', code: 'incorrect_credentials' });
      // The session it had before being deactivated (behind the API's back) no longer works either.
      expectUnauthorized(await testToken(ctx, user.headers));
    });

    it('requires a username', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/login/access-token',
        payload: 'password=whatever-it-is',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(response.statusCode).toBe(422);
      expect(detailOf(response)).toBe('Username is required');
    });
  });

  describe('POST /login/test-token and /logout', () => {
    it('answers the public user for a valid token, never the password hash', async () => {
      const user = await createUser(ctx);
      const response = await testToken(ctx, user.headers);
      expect(response.statusCode).toBe(200);
      const body = response.json<Record<string, unknown>>();
      expect(body).toMatchObject({ id: user.id, email: user.email, is_active: true, is_superuser: false });
      expect(Object.keys(body).sort()).toEqual([
        'created_at',
        'email',
        'email_verified',
        'full_name',
        'id',
        'is_active',
        'is_superuser',
      ]);
    });

    it('revokes the session on logout: the old token then gets 401, other sessions live on', async () => {
      const user = await createUser(ctx);
      const otherToken = await login(ctx, user.email, user.password);
      const logout = await ctx.app.inject({ method: 'POST', url: '/api/v1/logout', headers: user.headers });
      expect(logout.statusCode).toBe(204);
      expect(logout.body).toBe('');
      expectUnauthorized(await testToken(ctx, user.headers));
      expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: user.headers })).statusCode).toBe(
        401,
      );
      expect((await testToken(ctx, bearer(otherToken))).statusCode).toBe(200);
      // A second logout with the dead token is refused like any other request.
      expectUnauthorized(await ctx.app.inject({ method: 'POST', url: '/api/v1/logout', headers: user.headers }));
    });

    it('refuses logout without a token', async () => {
      expectUnauthorized(await ctx.app.inject({ method: 'POST', url: '/api/v1/logout' }));
    });
  });

  describe('bad tokens', () => {
    const signingKey = () => deriveKey(ctx.config.secretKey, 'jwt-signing');

    function sign(claims: { sid: string; sub: string }, key: Parameters<SignJWT['sign']>[0] = signingKey()) {
      const now = Math.floor(ctx.clock.now().getTime() / 1000);
      return new SignJWT({ sid: claims.sid })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(key);
    }

    function claimsOf(user: TestUser): { sid: string; sub: string } {
      const payload = decodeJwt(user.token);
      return { sid: String(payload.sid), sub: String(payload.sub) };
    }

    it('answers 401 with a detail when the header is missing or malformed', async () => {
      const user = await createUser(ctx);
      const missing = await testToken(ctx);
      expectUnauthorized(missing);
      expect(missing.json()).toEqual({ detail: authMessages.notAuthenticated, code: 'not_authenticated' });
      for (const authorization of [
        'Bearer',
        'Bearer ',
        'Bearer not-a-jwt',
        'Bearer a.b.c',
        'Bearer ....',
        `Bearer ${user.token} extra`,
        `Basic ${Buffer.from(`${user.email}:${user.password}`).toString('base64')}`,
        user.token,
        `Bearer ${'x'.repeat(5000)}`,
      ]) {
        const response = await testToken(ctx, { authorization });
        expectUnauthorized(response);
      }
      // The same token well formed is accepted: the refusals above are about the format.
      expect((await testToken(ctx, { authorization: `bearer ${user.token}` })).statusCode).toBe(200);
    });

    // WEB-CLIENT-3: identity is the bearer header only, so a cross-site request, which carries
    // cookies but cannot set headers, has nothing to forge and the product needs no XSRF pair.
    it('takes the token only from the Authorization header, never from a cookie (WEB-CLIENT-3)', async () => {
      const user = await createUser(ctx);
      for (const cookie of [
        `access_token=${user.token}`,
        `token=${user.token}`,
        `Authorization=Bearer ${user.token}`,
        `XSRF-TOKEN=${user.token}; access_token=${user.token}`,
      ]) {
        expectUnauthorized(await testToken(ctx, { cookie }));
      }
      // The same token in the header is accepted, and a cookie beside it changes nothing.
      expect((await testToken(ctx, { ...bearer(user.token), cookie: 'XSRF-TOKEN=anything' })).statusCode).toBe(200);
    });

    it('refuses a token with a wrong signature', async () => {
      const user = await createUser(ctx);
      const otherKey = new TextEncoder().encode('some-other-secret-key-that-is-long-enough');
      expectUnauthorized(await testToken(ctx, bearer(await sign(claimsOf(user), otherKey))));
      // Signed with SECRET_KEY itself rather than the key derived from it for tokens.
      const rawSecret = new TextEncoder().encode(ctx.config.secretKey);
      expectUnauthorized(await testToken(ctx, bearer(await sign(claimsOf(user), rawSecret))));
      const [header, payload, signature] = user.token.split('.');
      const tampered = `${header}.${payload}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
      expectUnauthorized(await testToken(ctx, bearer(tampered)));
      // A token we sign the same way with the right key is accepted: the test key is the real one.
      expect((await testToken(ctx, bearer(await sign(claimsOf(user))))).statusCode).toBe(200);
    });

    it('refuses a token with the right key but another algorithm, or without an expiry', async () => {
      const user = await createUser(ctx);
      const { sid, sub } = claimsOf(user);
      const now = Math.floor(ctx.clock.now().getTime() / 1000);
      const hs512 = await new SignJWT({ sid })
        .setProtectedHeader({ alg: 'HS512', typ: 'JWT' })
        .setSubject(sub)
        .setExpirationTime(now + 3600)
        .sign(signingKey());
      expectUnauthorized(await testToken(ctx, bearer(hs512)));
      const withoutExpiry = await new SignJWT({ sid })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(sub)
        .setIssuedAt(now)
        .sign(signingKey());
      expectUnauthorized(await testToken(ctx, bearer(withoutExpiry)));
    });

    it('refuses an unsigned `alg: none` token naming a live session', async () => {
      const user = await createUser(ctx);
      const [, payload] = user.token.split('.');
      const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
      expectUnauthorized(await testToken(ctx, bearer(`${header}.${payload}.`)));
      expectUnauthorized(await testToken(ctx, bearer(`${header}.${payload}`)));
      const noneUpper = base64url.encode(JSON.stringify({ alg: 'None', typ: 'JWT' }));
      expectUnauthorized(await testToken(ctx, bearer(`${noneUpper}.${payload}.`)));
    });

    it('refuses a well-signed token naming no live session of its subject', async () => {
      const user = await createUser(ctx);
      const other = await createUser(ctx);
      const { sid } = claimsOf(user);
      expectUnauthorized(await testToken(ctx, bearer(await sign({ sid: 'not-a-uuid', sub: user.id }))));
      expectUnauthorized(
        await testToken(ctx, bearer(await sign({ sid: '00000000-0000-4000-8000-000000000000', sub: user.id }))),
      );
      // Someone else's session id under this subject, and this session under someone else's.
      expectUnauthorized(await testToken(ctx, bearer(await sign({ sid: claimsOf(other).sid, sub: user.id }))));
      expectUnauthorized(await testToken(ctx, bearer(await sign({ sid, sub: other.id }))));
    });

    it('refuses the token of a deleted user', async () => {
      const user = await createUser(ctx);
      const removal = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/v1/users/${user.id}`,
        headers: admin.headers,
      });
      expect(removal.statusCode).toBe(204);
      expectUnauthorized(await testToken(ctx, user.headers));
    });

    it('refuses the token of a revoked session', async () => {
      const user = await createUser(ctx);
      expect((await ctx.app.inject({ method: 'POST', url: '/api/v1/logout', headers: user.headers })).statusCode).toBe(
        204,
      );
      const response = await testToken(ctx, user.headers);
      expectUnauthorized(response);
      expect(response.json()).toEqual({ detail: authMessages.invalidCredentials, code: 'not_authenticated' });
    });

    // Moves the clock by days: keep it last, every token issued before it expires.
    it('refuses a token once ACCESS_TOKEN_EXPIRE_MINUTES have passed', async () => {
      const user = await createUser(ctx);
      const lifetime = ctx.config.accessTokenExpireMinutes * MINUTE;
      ctx.clock.advance(lifetime - MINUTE);
      expect((await testToken(ctx, user.headers)).statusCode).toBe(200);
      ctx.clock.advance(2 * MINUTE);
      expectUnauthorized(await testToken(ctx, user.headers));
      // Logging in again gives a fresh token that works at the new time.
      expect((await testToken(ctx, bearer(await login(ctx, user.email, user.password)))).statusCode).toBe(200);
    });
  });
});
