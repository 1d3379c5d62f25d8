import { authMessages, messages, RESET_TOKEN_TTL_MINUTES, userMessages } from '@dataplatform/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import { base64url, decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestContext,
  createUser,
  detailOf,
  login,
  loginRequest,
  useTestContext,
  type TestContext,
  type TestUser,
} from '../../../test/harness.js';
import { isRecoveryMailTo, mailAfter, resetTokenFrom } from '../../../test/mail.js';
import { deleteRedisKeys, openRedisInspector, TEST_REDIS_URL, uniqueRedisPrefix } from '../../../test/redis.js';
import { defaultRateLimits, type Config } from '../../config.js';
import { outbox, passwordRecoveryRequests, passwordResetTokens } from '../../db/schema/index.js';
import { deriveKey } from '../../lib/keys.js';

const MINUTE = 60_000;

function recover(ctx: TestContext, email: string, remoteAddress?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v1/password-recovery/${encodeURIComponent(email)}`,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

function reset(ctx: TestContext, token: string, newPassword: string, remoteAddress?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/reset-password/',
    payload: { token, new_password: newPassword },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

function testToken(ctx: TestContext, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method: 'POST', url: '/api/v1/login/test-token', headers });
}

/** Asks for a recovery mail and answers the token of the link it carries. */
async function mailedResetToken(ctx: TestContext, email: string): Promise<string> {
  const mail = await mailAfter(ctx, isRecoveryMailTo(email), async () => {
    const response = await recover(ctx, email);
    expect(response.statusCode).toBe(200);
  });
  return resetTokenFrom(ctx, mail.text);
}

function expectUnauthorized(response: Awaited<ReturnType<typeof testToken>>) {
  expect(response.statusCode).toBe(401);
  const body = response.json<{ detail: unknown }>();
  expect(typeof body.detail).toBe('string');
  expect(body.detail).not.toBe('');
  expect(response.headers['www-authenticate']).toBe('Bearer');
}

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

  describe('password recovery', () => {
    it('answers the same for a known, an unknown and an inactive address, and mails only the known active one', async () => {
      const active = await createUser(ctx);
      const inactive = await createUser(ctx, { isActive: false });
      const unknownEmail = 'never-registered@example.com';

      const forUnknown = await recover(ctx, unknownEmail);
      const forInactive = await recover(ctx, inactive.email);
      const mail = await mailAfter(ctx, isRecoveryMailTo(active.email), async () => {
        const forActive = await recover(ctx, active.email);
        expect(forActive.statusCode).toBe(200);
        expect(forUnknown.statusCode).toBe(200);
        expect(forInactive.statusCode).toBe(200);
        expect(forUnknown.body).toBe(forActive.body);
        expect(forInactive.body).toBe(forActive.body);
      });

      const token = resetTokenFrom(ctx, mail.text);
      expect(mail.text).toContain(`https://app.example.test/reset-password?token=`);
      expect(resetTokenFrom(ctx, mail.html)).toBe(token);
      // At least 128 random bits, URL-safe.
      expect(token).toMatch(/^[A-Za-z0-9_-]{22,}$/);

      // The outbox sends in order: the active user's mail arriving means the others were never queued.
      const recipients = ctx.smtp.received.flatMap((m) => m.to);
      expect(recipients).not.toContain(unknownEmail);
      expect(recipients).not.toContain(inactive.email);
      const queued = await ctx.database.db.select({ recipient: outbox.recipient }).from(outbox);
      expect(queued.map((row) => row.recipient)).not.toContain(inactive.email);
      expect(queued.map((row) => row.recipient)).not.toContain(unknownEmail);

      // Stored hashed: the database never holds the token itself.
      const stored = await ctx.database.db
        .select({ tokenHash: passwordResetTokens.tokenHash })
        .from(passwordResetTokens)
        .where(eq(passwordResetTokens.userId, active.id));
      expect(stored.length).toBeGreaterThan(0);
      for (const row of stored) expect(row.tokenHash).not.toContain(token);
    });

    it('does the same work for a known and an unknown address before answering: one queued request', async () => {
      const known = await createUser(ctx);
      const unknownEmail = 'nobody-here@example.com';
      // Keeps the mail worker from taking requests off the queue, so what the answer left behind shows.
      await ctx.database.db.execute(sql`
        CREATE FUNCTION test_hold_recovery_queue() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'held by the test'; END $$`);
      await ctx.database.db.execute(sql`
        CREATE TRIGGER test_hold_recovery_queue BEFORE DELETE ON password_recovery_requests
        FOR EACH ROW EXECUTE FUNCTION test_hold_recovery_queue()`);
      try {
        const forKnown = await recover(ctx, known.email);
        const forUnknown = await recover(ctx, unknownEmail);
        expect(forKnown.statusCode).toBe(200);
        expect(forUnknown.body).toBe(forKnown.body);
        const queued = await ctx.database.db
          .select({ email: passwordRecoveryRequests.email, attempts: passwordRecoveryRequests.attempts })
          .from(passwordRecoveryRequests)
          .where(inArray(passwordRecoveryRequests.email, [known.email, unknownEmail]));
        expect(queued).toHaveLength(2);
        expect(queued.every((row) => row.attempts === 0)).toBe(true);
        // Nothing about the account was touched while answering.
        const tokens = await ctx.database.db
          .select()
          .from(passwordResetTokens)
          .where(eq(passwordResetTokens.userId, known.id));
        expect(tokens).toHaveLength(0);
      } finally {
        await ctx.database.db.execute(sql`DROP TRIGGER test_hold_recovery_queue ON password_recovery_requests`);
      }
      // Released, the worker mails the known address and drops the other request.
      await ctx.app.services.outbox.drain();
      await ctx.smtp.waitFor(isRecoveryMailTo(known.email));
      const left = await ctx.database.db
        .select()
        .from(passwordRecoveryRequests)
        .where(inArray(passwordRecoveryRequests.email, [known.email, unknownEmail]));
      expect(left).toHaveLength(0);
      expect(ctx.smtp.received.flatMap((mail) => mail.to)).not.toContain(unknownEmail);
    });

    it('finds the account whatever the letter case of the address', async () => {
      const user = await createUser(ctx);
      const mail = await mailAfter(ctx, isRecoveryMailTo(user.email), () => recover(ctx, user.email.toUpperCase()));
      expect(resetTokenFrom(ctx, mail.text).length).toBeGreaterThanOrEqual(22);
    });

    it('refuses an address that is not an e-mail with a 422', async () => {
      const response = await recover(ctx, 'not-an-email');
      expect(response.statusCode).toBe(422);
      expect(detailOf(response)).toBe('Invalid email address');
    });
  });

  describe('POST /reset-password/', () => {
    it('sets the new password once: the link cannot be used a second time', async () => {
      const user = await createUser(ctx);
      const token = await mailedResetToken(ctx, user.email);
      const first = await reset(ctx, token, 'brand-new-password-1');
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ message: authMessages.passwordUpdated });
      expect((await loginRequest(ctx, user.email, 'brand-new-password-1')).statusCode).toBe(200);
      expect((await loginRequest(ctx, user.email, user.password)).statusCode).toBe(400);

      const second = await reset(ctx, token, 'another-password-2');
      expect(second.statusCode).toBe(400);
      expect(second.json()).toEqual({ detail: authMessages.invalidResetToken, code: 'invalid_reset_token' });
      expect((await loginRequest(ctx, user.email, 'another-password-2')).statusCode).toBe(400);
    });

    it('refuses one of the most common passwords on the field, whatever its case, and keeps the link alive (PWD-COMMON-1)', async () => {
      const user = await createUser(ctx);
      const token = await mailedResetToken(ctx, user.email);
      for (const common of ['password1', 'Qwertyuiop', 'iloveyou']) {
        const refused = await reset(ctx, token, common);
        expect(refused.statusCode).toBe(422);
        expect(refused.json()).toMatchObject({
          detail: [{ loc: ['body', 'new_password'], msg: messages.passwordTooCommon }],
          code: 'validation_failed',
        });
      }
      expect((await loginRequest(ctx, user.email, user.password)).statusCode).toBe(200);
      expect((await reset(ctx, token, 'brand-new-password-1')).statusCode).toBe(200);
    });

    it('revokes every session of the user', async () => {
      const user = await createUser(ctx);
      const secondToken = await login(ctx, user.email, user.password);
      const token = await mailedResetToken(ctx, user.email);
      expect((await reset(ctx, token, 'brand-new-password-1')).statusCode).toBe(200);
      expectUnauthorized(await testToken(ctx, user.headers));
      expectUnauthorized(await testToken(ctx, bearer(secondToken)));
    });

    it('works up to 60 minutes after the mail and not after', async () => {
      expect(RESET_TOKEN_TTL_MINUTES).toBe(60);
      const early = await createUser(ctx);
      const earlyToken = await mailedResetToken(ctx, early.email);
      const late = await createUser(ctx);
      const lateToken = await mailedResetToken(ctx, late.email);

      ctx.clock.advance(59 * MINUTE);
      expect((await reset(ctx, earlyToken, 'brand-new-password-1')).statusCode).toBe(200);

      ctx.clock.advance(1 * MINUTE + 1000);
      const expired = await reset(ctx, lateToken, 'brand-new-password-1');
      expect(expired.statusCode).toBe(400);
      expect(expired.json()).toEqual({ detail: authMessages.invalidResetToken, code: 'invalid_reset_token' });
      expect((await loginRequest(ctx, late.email, late.password)).statusCode).toBe(200);
    });

    it('is dead after a later password change', async () => {
      const user = await createUser(ctx);
      const token = await mailedResetToken(ctx, user.email);
      const change = await ctx.app.inject({
        method: 'PATCH',
        url: '/api/v1/users/me/password',
        headers: user.headers,
        payload: {
          current_password: user.password,
          new_password: 'changed-password-1',
          confirm_password: 'changed-password-1',
        },
      });
      expect(change.statusCode).toBe(200);
      const response = await reset(ctx, token, 'brand-new-password-1');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: authMessages.invalidResetToken, code: 'invalid_reset_token' });
      expect((await loginRequest(ctx, user.email, 'changed-password-1')).statusCode).toBe(200);
    });

    it('is dead once a newer recovery mail has been sent', async () => {
      const user = await createUser(ctx);
      const older = await mailedResetToken(ctx, user.email);
      const newer = await mailedResetToken(ctx, user.email);
      expect(newer).not.toBe(older);
      expect((await reset(ctx, older, 'brand-new-password-1')).statusCode).toBe(400);
      expect((await reset(ctx, newer, 'brand-new-password-2')).statusCode).toBe(200);
      expect((await loginRequest(ctx, user.email, 'brand-new-password-2')).statusCode).toBe(200);
    });

    it('refuses a token that was never issued, and a too short new password', async () => {
      const forged = await reset(ctx, 'A'.repeat(43), 'brand-new-password-1');
      expect(forged.statusCode).toBe(400);
      expect(forged.json()).toEqual({ detail: authMessages.invalidResetToken, code: 'invalid_reset_token' });

      const user = await createUser(ctx);
      const token = await mailedResetToken(ctx, user.email);
      const short = await reset(ctx, token, 'short');
      expect(short.statusCode).toBe(422);
      expect(detailOf(short)).toBe('Password must be at least 8 characters');
      // The refused attempt did not spend the link.
      expect((await reset(ctx, token, 'brand-new-password-1')).statusCode).toBe(200);
    });

    it('refuses the link of a user deactivated since the mail', async () => {
      const user = await createUser(ctx);
      const token = await mailedResetToken(ctx, user.email);
      const deactivate = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/v1/users/${user.id}`,
        headers: admin.headers,
        payload: { is_active: false },
      });
      expect(deactivate.statusCode).toBe(200);
      const response = await reset(ctx, token, 'brand-new-password-1');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: 'Inactive user', code: 'inactive_user' });
    });
  });

  describe('POST /password-recovery-html-content/{email}', () => {
    const preview = (email: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/password-recovery-html-content/${encodeURIComponent(email)}`,
        headers,
      });

    it('shows a superuser the recovery mail, whose link cannot reset anything', async () => {
      const user = await createUser(ctx);
      const realToken = await mailedResetToken(ctx, user.email);
      const response = await preview(user.email, admin.headers);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('<html');
      const previewToken = resetTokenFrom(ctx, response.body);
      expect(previewToken).not.toBe(realToken);

      const attempt = await reset(ctx, previewToken, 'brand-new-password-1');
      expect(attempt.statusCode).toBe(400);
      expect((await loginRequest(ctx, user.email, user.password)).statusCode).toBe(200);
      // Previewing neither sent a mail nor spent the link the user really got.
      expect(ctx.smtp.received.filter(isRecoveryMailTo(user.email))).toHaveLength(1);
      expect((await reset(ctx, realToken, 'brand-new-password-1')).statusCode).toBe(200);
    });

    it('is refused to plain users (403) and anonymous callers (401)', async () => {
      const user = await createUser(ctx);
      const asUser = await preview(user.email, user.headers);
      expect(asUser.statusCode).toBe(403);
      expect(asUser.json()).toEqual({ detail: userMessages.notEnoughPrivileges, code: 'permission_denied' });
      expectUnauthorized(await preview(user.email));
    });

    it('answers 404 for an unknown address', async () => {
      const response = await preview('nobody-at-all@example.com', admin.headers);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: userMessages.notFound, code: 'not_found' });
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

// The same rules and the same answers whether each process counts on its own or all count in Redis
// (decision 049).
describe.each<{ store: string; redisPrefix?: string }>([
  { store: 'in memory' },
  { store: 'in Redis', redisPrefix: uniqueRedisPrefix() },
])('rate limits, counted $store', ({ redisPrefix }) => {
  const WINDOW = 60 * MINUTE;
  const rule = (max: number) => ({ max, windowMs: WINDOW });
  const rateLimits: Config['rateLimits'] = {
    ...defaultRateLimits,
    // createUser logs in from the default address: room for the users these tests create.
    loginPerIp: rule(8),
    loginFailuresPerAccountAndIp: rule(3),
    loginFailuresPerAccount: rule(6),
    recoveryPerIp: rule(3),
    recoveryPerAccount: rule(2),
    resetPerIp: rule(2),
    signupPerIp: rule(3),
    signupPerAccount: rule(2),
  };

  let ctx: TestContext;
  beforeAll(async () => {
    const env: Record<string, string> =
      redisPrefix === undefined ? {} : { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: redisPrefix };
    ctx = await createTestContext({ env, config: { rateLimits } });
  });
  afterAll(async () => {
    await ctx.close();
    if (redisPrefix !== undefined) {
      const redis = await openRedisInspector();
      await deleteRedisKeys(redis, redisPrefix);
      redis.disconnect();
    }
  });

  function expectTooManyRequests(response: Awaited<ReturnType<TestContext['app']['inject']>>) {
    expect(response.statusCode).toBe(429);
    expect(response.json()).toEqual({ detail: authMessages.tooManyRequests, code: 'rate_limited' });
    const retryAfter = Number(response.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW / 1000);
  }

  const loginFrom = (remoteAddress: string, username: string, password: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/login/access-token',
      payload: new URLSearchParams({ username, password }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress,
    });

  const signupFrom = (remoteAddress: string, email: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/users/signup',
      payload: { email, password: 'long-enough-1', confirm_password: 'long-enough-1', full_name: 'Rate Limited' },
      remoteAddress,
    });

  it('limits login attempts per IP, whatever the account', async () => {
    const ip = '198.51.100.1';
    for (let i = 0; i < 8; i += 1) {
      expect((await loginFrom(ip, `guess${i}@example.com`, 'wrong-password')).statusCode).toBe(400);
    }
    expectTooManyRequests(await loginFrom(ip, 'guess-more@example.com', 'wrong-password'));
    // Another address is not affected.
    expect((await loginFrom('198.51.100.2', 'guess-more@example.com', 'wrong-password')).statusCode).toBe(400);
  });

  it('never holds back the right password with earlier successful logins', async () => {
    const user = await createUser(ctx);
    for (let i = 0; i < 4; i += 1) {
      expect((await loginFrom(`203.0.113.${i}`, user.email, user.password)).statusCode).toBe(200);
      expect((await loginFrom(`203.0.113.${i}`, user.email, user.password)).statusCode).toBe(200);
    }
  });

  it('stops guesses at an account from one address, which then waits even with the right password', async () => {
    const user = await createUser(ctx);
    const attacker = '203.0.113.50';
    for (let i = 0; i < 3; i += 1) {
      expect((await loginFrom(attacker, user.email, `wrong-${i}`)).statusCode).toBe(400);
    }
    expectTooManyRequests(await loginFrom(attacker, user.email.toUpperCase(), user.password));
    // The owner, elsewhere, is not locked out; and a success clears that address's failures.
    const owner = '203.0.113.51';
    expect((await loginFrom(owner, user.email, 'typo')).statusCode).toBe(400);
    expect((await loginFrom(owner, user.email, user.password)).statusCode).toBe(200);
    expect((await loginFrom(owner, user.email, 'typo-again')).statusCode).toBe(400);
    expect((await loginFrom(owner, user.email, user.password)).statusCode).toBe(200);
    // An unknown address is throttled just the same: a 429 says nothing about accounts.
    for (let i = 0; i < 3; i += 1) {
      expect((await loginFrom('203.0.113.52', 'nobody-at-all@example.com', `wrong-${i}`)).statusCode).toBe(400);
    }
    expectTooManyRequests(await loginFrom('203.0.113.52', 'nobody-at-all@example.com', 'wrong-3'));
  });

  it('stops guesses spread over many addresses at the account-wide budget', async () => {
    const user = await createUser(ctx);
    for (let i = 0; i < 6; i += 1) {
      expect((await loginFrom(`198.51.100.${100 + i}`, user.email, 'wrong-password')).statusCode).toBe(400);
    }
    expectTooManyRequests(await loginFrom('198.51.100.120', user.email, 'wrong-password'));
    // Other accounts are untouched.
    const other = await createUser(ctx);
    expect((await loginFrom('198.51.100.120', other.email, other.password)).statusCode).toBe(200);
  });

  it('holds guesses sent all at once to the budget', async () => {
    const user = await createUser(ctx);
    const responses = await Promise.all(
      Array.from({ length: 4 }, (_, i) => loginFrom('192.0.2.77', user.email, `parallel-${i}`)),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([400, 400, 400, 429]);
  });

  it('limits recovery per IP and per address', async () => {
    const ip = '198.51.100.30';
    for (let i = 0; i < 3; i += 1) {
      expect((await recover(ctx, `someone${i}@example.com`, ip)).statusCode).toBe(200);
    }
    expectTooManyRequests(await recover(ctx, 'someone-else@example.com', ip));

    const target = 'target@example.com';
    expect((await recover(ctx, target, '198.51.100.31')).statusCode).toBe(200);
    expect((await recover(ctx, target.toUpperCase(), '198.51.100.32')).statusCode).toBe(200);
    expectTooManyRequests(await recover(ctx, target, '198.51.100.33'));
  });

  it('limits reset attempts per IP', async () => {
    const ip = '198.51.100.40';
    for (let i = 0; i < 2; i += 1) {
      expect((await reset(ctx, `guessed-token-${i}-${'x'.repeat(30)}`, 'brand-new-password-1', ip)).statusCode).toBe(
        400,
      );
    }
    expectTooManyRequests(await reset(ctx, `guessed-token-9-${'x'.repeat(30)}`, 'brand-new-password-1', ip));
    expect(
      (await reset(ctx, `guessed-token-9-${'x'.repeat(30)}`, 'brand-new-password-1', '198.51.100.41')).statusCode,
    ).toBe(400);
  });

  it('limits sign-ups per IP and per address', async () => {
    const ip = '198.51.100.50';
    for (let i = 0; i < 3; i += 1) {
      expect((await signupFrom(ip, `newcomer${i}@example.com`)).statusCode).toBe(201);
    }
    expectTooManyRequests(await signupFrom(ip, 'newcomer-late@example.com'));

    const email = 'popular@example.com';
    expect((await signupFrom('198.51.100.51', email)).statusCode).toBe(201);
    expect((await signupFrom('198.51.100.52', email.toUpperCase())).statusCode).toBe(201);
    expectTooManyRequests(await signupFrom('198.51.100.53', email));
  });
});
