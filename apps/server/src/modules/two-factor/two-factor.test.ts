import { AUDIT_ACTIONS, RECOVERY_CODE_COUNT, twoFactorMessages } from '@dataplatform/contract';
import { generate } from 'otplib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestClock,
  createUser,
  generousRateLimits,
  loginRequest,
  useTestContext,
  type TestContext,
  type TestUser,
} from '../../../test/harness.js';
import { mailAfter } from '../../../test/mail.js';
import { deleteRedisKeys, openRedisInspector, TEST_REDIS_URL, uniqueRedisPrefix } from '../../../test/redis.js';
import { userAuditActions } from '../../../test/user-requests.js';
import { API_PREFIX as API } from '../../plugins/swagger.js';

/** The code an authenticator app would show for `secret` at the test clock's time. */
function codeAt(ctx: TestContext, secret: string, offsetSeconds = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(ctx.clock.now().getTime() / 1000) + offsetSeconds });
}

/** Moves the clock to the start of the next 30-second time step, so a new code is due. */
function nextStep(ctx: TestContext) {
  const now = ctx.clock.now().getTime();
  ctx.clock.advance(30_000 - (now % 30_000));
}

/** `POST /users/me/two-factor/setup`: a new secret, not on until confirmed. */
function setupRequest(ctx: TestContext, user: TestUser) {
  return ctx.app.inject({ method: 'POST', url: `${API}/users/me/two-factor/setup`, headers: user.headers });
}

/** `POST /users/me/two-factor/confirm` with a code: turns it on when the code is right. */
function confirmRequest(ctx: TestContext, user: TestUser, code: string) {
  return ctx.app.inject({
    method: 'POST',
    url: `${API}/users/me/two-factor/confirm`,
    headers: user.headers,
    payload: { code },
  });
}

async function enable(ctx: TestContext, user: TestUser) {
  const setup = await setupRequest(ctx, user);
  expect(setup.statusCode).toBe(200);
  const { secret, otpauth_url } = setup.json<{ secret: string; otpauth_url: string }>();
  const confirm = await confirmRequest(ctx, user, await codeAt(ctx, secret));
  expect(confirm.statusCode).toBe(200);
  const { recovery_codes } = confirm.json<{ recovery_codes: string[] }>();
  return { secret, otpauthUrl: otpauth_url, recoveryCodes: recovery_codes };
}

async function challengeFor(ctx: TestContext, user: TestUser): Promise<string> {
  const response = await loginRequest(ctx, user.email, user.password);
  expect(response.statusCode).toBe(200);
  const body = response.json<{ two_factor_required: boolean; challenge_token: string; access_token?: string }>();
  expect(body.two_factor_required).toBe(true);
  expect(body.access_token).toBeUndefined();
  return body.challenge_token;
}

function codeStep(ctx: TestContext, challengeToken: string, code: string) {
  return ctx.app.inject({
    method: 'POST',
    url: `${API}/login/two-factor`,
    payload: { challenge_token: challengeToken, code },
  });
}

const codeOf = (response: { json<T>(): T }) => response.json<{ code: string }>().code;

describe('two-factor sign-in (TOTP)', () => {
  const { ctx, admin } = useTestContext({ clock: createTestClock(new Date('2026-03-01T09:00:05Z')) });

  it('enrols with a code from the app, hands out ten recovery codes once, and mails the owner (TOTP-ENROL-1)', async () => {
    const user = await createUser(ctx);
    const status = await ctx.app.inject({ url: `${API}/users/me/two-factor`, headers: user.headers });
    expect(status.json()).toEqual({ enabled: false, recovery_codes_left: 0, required: false });

    const setup = await setupRequest(ctx, user);
    const { secret, otpauth_url } = setup.json<{ secret: string; otpauth_url: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toContain(`secret=${secret}`);
    expect(otpauth_url).toContain('issuer=Data%20Platform');

    // Not on until confirmed: logging in still answers a session.
    const before = await loginRequest(ctx, user.email, user.password);
    expect(before.json()).toHaveProperty('access_token');

    const wrong = await confirmRequest(
      ctx,
      user,
      (Number(await codeAt(ctx, secret)) + 1).toString().padStart(6, '0').slice(-6),
    );
    expect(wrong.statusCode).toBe(400);
    expect(codeOf(wrong)).toBe('invalid_two_factor_code');

    const mail = await mailAfter(
      ctx,
      (m) => m.to.includes(user.email) && m.subject.includes('turned on'),
      async () => {
        const confirm = await confirmRequest(ctx, user, await codeAt(ctx, secret));
        expect(confirm.statusCode).toBe(200);
        const codes = confirm.json<{ recovery_codes: string[] }>().recovery_codes;
        expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
        expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
        for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      },
    );
    expect(mail.text).toContain('Two-factor authentication was turned on');

    const after = await ctx.app.inject({ url: `${API}/users/me/two-factor`, headers: user.headers });
    expect(after.json()).toEqual({ enabled: true, recovery_codes_left: 10, required: false });
    // A second set-up cannot replace a secret that is on.
    const again = await setupRequest(ctx, user);
    expect(again.statusCode).toBe(409);
    expect(await userAuditActions(ctx, user.id)).toContain(AUDIT_ACTIONS.twoFactorEnable);
  });

  it('keeps the password step as it was for accounts without it (TOTP-LOGIN-1)', async () => {
    const user = await createUser(ctx);
    const response = await loginRequest(ctx, user.email, user.password);
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(['access_token', 'token_type']);
  });

  it('answers a challenge, not a session, and the challenge is refused wherever a session is accepted (TOTP-LOGIN-2)', async () => {
    const user = await createUser(ctx);
    await enable(ctx, user);
    const challenge = await challengeFor(ctx, user);
    for (const [method, url] of [
      ['POST', `${API}/login/test-token`],
      ['GET', `${API}/users/me`],
      ['GET', `${API}/users/me/two-factor`],
      ['POST', `${API}/logout`],
    ] as const) {
      const response = await ctx.app.inject({ method, url, headers: bearer(challenge) });
      expect(response.statusCode, url).toBe(401);
    }
    // And a session token is no challenge.
    const asChallenge = await codeStep(ctx, user.token, '123456');
    expect(asChallenge.statusCode).toBe(400);
    expect(codeOf(asChallenge)).toBe('invalid_two_factor_challenge');
  });

  it('opens a session for a right code, refuses a wrong one and the same code twice (TOTP-LOGIN-3)', async () => {
    const user = await createUser(ctx);
    const { secret } = await enable(ctx, user);
    nextStep(ctx);

    const wrongCode = (await codeAt(ctx, secret, -300)) === '000000' ? '111111' : '000000';
    const wrong = await codeStep(ctx, await challengeFor(ctx, user), wrongCode);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: 'Invalid authentication code', code: 'invalid_two_factor_code' });

    const code = await codeAt(ctx, secret);
    const right = await codeStep(ctx, await challengeFor(ctx, user), code);
    expect(right.statusCode).toBe(200);
    const token = right.json<{ access_token: string }>().access_token;
    const me = await ctx.app.inject({ url: `${API}/users/me`, headers: bearer(token) });
    expect(me.json<{ email: string }>().email).toBe(user.email);

    // The same code again, still inside its window: a replay.
    ctx.clock.advance(5_000);
    const replay = await codeStep(ctx, await challengeFor(ctx, user), code);
    expect(replay.statusCode).toBe(400);
    expect(codeOf(replay)).toBe('invalid_two_factor_code');
    // So is the previous step's code, which the tolerance would otherwise accept.
    const older = await codeStep(ctx, await challengeFor(ctx, user), await codeAt(ctx, secret, -30));
    expect(older.statusCode).toBe(400);

    // The next step's code works.
    nextStep(ctx);
    const next = await codeStep(ctx, await challengeFor(ctx, user), await codeAt(ctx, secret));
    expect(next.statusCode).toBe(200);
  });

  it('lets a challenge expire after five minutes (TOTP-LOGIN-2)', async () => {
    const user = await createUser(ctx);
    const { secret } = await enable(ctx, user);
    const challenge = await challengeFor(ctx, user);
    ctx.clock.advance(5 * 60_000 + 1_000);
    const late = await codeStep(ctx, challenge, await codeAt(ctx, secret));
    expect(late.statusCode).toBe(400);
    expect(codeOf(late)).toBe('invalid_two_factor_challenge');
    const tampered = await codeStep(ctx, `${challenge.slice(0, -2)}xx`, await codeAt(ctx, secret));
    expect(codeOf(tampered)).toBe('invalid_two_factor_challenge');
  });

  it('accepts each recovery code once, audits and mails its use (TOTP-RECOVERY-1)', async () => {
    const user = await createUser(ctx);
    const { recoveryCodes } = await enable(ctx, user);
    const [first, second] = recoveryCodes as [string, string];

    const mail = await mailAfter(
      ctx,
      (m) => m.to.includes(user.email) && m.subject.includes('recovery code'),
      async () => {
        // Case and dashes do not matter when typing it.
        const used = await codeStep(ctx, await challengeFor(ctx, user), first.toUpperCase().replace('-', ' '));
        expect(used.statusCode).toBe(200);
        expect(used.json()).toHaveProperty('access_token');
      },
    );
    expect(mail.text).toContain('9 remain');

    const reused = await codeStep(ctx, await challengeFor(ctx, user), first);
    expect(reused.statusCode).toBe(400);
    expect(codeOf(reused)).toBe('invalid_two_factor_code');
    expect((await codeStep(ctx, await challengeFor(ctx, user), second)).statusCode).toBe(200);

    const status = await ctx.app.inject({ url: `${API}/users/me/two-factor`, headers: user.headers });
    expect(status.json<{ recovery_codes_left: number }>().recovery_codes_left).toBe(8);
    expect(
      (await userAuditActions(ctx, user.id)).filter((a) => a === AUDIT_ACTIONS.twoFactorRecoveryCodeUsed),
    ).toHaveLength(2);
  });

  it('turns off only with the password and a current code, and mails the owner (TOTP-DISABLE-1)', async () => {
    const user = await createUser(ctx);
    const { secret } = await enable(ctx, user);
    nextStep(ctx);
    const disable = (payload: object) =>
      ctx.app.inject({ method: 'POST', url: `${API}/users/me/two-factor/disable`, headers: user.headers, payload });

    const wrongPassword = await disable({ password: 'not-the-password', code: await codeAt(ctx, secret) });
    expect(wrongPassword.statusCode).toBe(400);
    expect(codeOf(wrongPassword)).toBe('incorrect_password');
    const noCode = await disable({ password: user.password });
    expect(noCode.statusCode).toBe(422);
    const wrongCode = await disable({
      password: user.password,
      code: '000000' === (await codeAt(ctx, secret)) ? '111111' : '000000',
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(codeOf(wrongCode)).toBe('invalid_two_factor_code');

    const mail = await mailAfter(
      ctx,
      (m) => m.to.includes(user.email) && m.subject.includes('turned off'),
      async () => {
        const off = await disable({ password: user.password, code: await codeAt(ctx, secret) });
        expect(off.statusCode).toBe(200);
      },
    );
    expect(mail.text).toContain('turned off');
    const login = await loginRequest(ctx, user.email, user.password);
    expect(login.json()).toHaveProperty('access_token');
    expect(await userAuditActions(ctx, user.id)).toEqual(
      expect.arrayContaining([AUDIT_ACTIONS.twoFactorEnable, AUDIT_ACTIONS.twoFactorDisable]),
    );
  });

  describe('a superuser resets a lost second factor (TOTP-RESET-1)', () => {
    const reset = (userId: string, headers: Record<string, string>) =>
      ctx.app.inject({ method: 'POST', url: `${API}/users/${userId}/two-factor/reset`, headers });

    it('turns it off, signs the user out everywhere, audits and mails them; the password alone signs in', async () => {
      const user = await createUser(ctx);
      await enable(ctx, user);
      const mail = await mailAfter(
        ctx,
        (m) => m.to.includes(user.email) && m.subject.includes('turned off by an administrator'),
        async () => {
          const done = await reset(user.id, admin.headers);
          expect(done.statusCode).toBe(200);
          expect(done.json()).toEqual({ message: twoFactorMessages.resetDone });
        },
      );
      expect(mail.text).toContain('signed it out everywhere');
      // The session the user had (perhaps on the lost phone) is gone.
      expect((await ctx.app.inject({ url: `${API}/users/me`, headers: user.headers })).statusCode).toBe(401);
      const login = await loginRequest(ctx, user.email, user.password);
      expect(login.json()).toHaveProperty('access_token');
      const status = await ctx.app.inject({
        url: `${API}/users/me/two-factor`,
        headers: bearer(login.json<{ access_token: string }>().access_token),
      });
      expect(status.json()).toMatchObject({ enabled: false, recovery_codes_left: 0 });
      expect(await userAuditActions(ctx, user.id)).toContain(AUDIT_ACTIONS.twoFactorReset);

      // Nothing left to reset: a clear 400, and no second audit entry.
      const again = await reset(user.id, admin.headers);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ detail: twoFactorMessages.notEnabled, code: 'bad_request' });
      expect((await userAuditActions(ctx, user.id)).filter((a) => a === AUDIT_ACTIONS.twoFactorReset)).toHaveLength(1);
    });

    it("refuses a superuser's own account, an unknown user, a bad id and anyone but a superuser", async () => {
      const own = await reset(admin.id, admin.headers);
      expect(own.statusCode).toBe(400);
      expect(own.json()).toMatchObject({ detail: twoFactorMessages.resetOwn });

      const unknown = await reset('00000000-0000-4000-8000-000000000000', admin.headers);
      expect(unknown.statusCode).toBe(404);
      expect((await reset('not-a-uuid', admin.headers)).statusCode).toBe(422);

      const target = await createUser(ctx);
      await enable(ctx, target);
      const other = await createUser(ctx);
      expect((await reset(target.id, other.headers)).statusCode).toBe(403);
      expect((await reset(target.id, {})).statusCode).toBe(401);
      // Still on: the password step answers a challenge.
      await challengeFor(ctx, target);
    });
  });
});

// The same rules and answers whether each process counts on its own or all count in Redis (decision 049).
describe.each<{ store: string; redisPrefix?: string }>([
  { store: 'in memory' },
  { store: 'in Redis', redisPrefix: uniqueRedisPrefix() },
])('two-factor codes are throttled like passwords, counted $store (TOTP-THROTTLE-1)', ({ redisPrefix }) => {
  const { ctx } = useTestContext({
    clock: createTestClock(new Date('2026-03-01T09:00:05Z')),
    env: redisPrefix === undefined ? {} : { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: redisPrefix },
    config: {
      rateLimits: {
        ...generousRateLimits,
        twoFactorFailuresPerAccountAndIp: { max: 3, windowMs: 15 * 60_000 },
        twoFactorFailuresPerAccount: { max: 6, windowMs: 15 * 60_000 },
      },
    },
  });
  afterAll(async () => {
    if (redisPrefix === undefined) return;
    const redis = await openRedisInspector();
    await deleteRedisKeys(redis, redisPrefix);
    redis.disconnect();
  });

  it('refuses even the right code once the budget is spent, and audits it', async () => {
    const user = await createUser(ctx);
    const { secret } = await enable(ctx, user);
    nextStep(ctx);
    const challenge = await challengeFor(ctx, user);
    const wrong = (await codeAt(ctx, secret)) === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await codeStep(ctx, challenge, wrong)).statusCode).toBe(400);
    }
    const refused = await codeStep(ctx, challenge, await codeAt(ctx, secret));
    expect(refused.statusCode).toBe(429);
    expect(codeOf(refused)).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await userAuditActions(ctx, user.id)).toContain(AUDIT_ACTIONS.twoFactorThrottled);
    // Counted apart from passwords: the password step still answers.
    expect((await loginRequest(ctx, user.email, user.password)).statusCode).toBe(200);
  });
});

describe('the two-factor throttle in memory, on the injected clock (TOTP-THROTTLE-1)', () => {
  const { ctx } = useTestContext({
    clock: createTestClock(new Date('2026-03-01T09:00:05Z')),
    config: {
      rateLimits: {
        ...generousRateLimits,
        twoFactorFailuresPerAccountAndIp: { max: 3, windowMs: 15 * 60_000 },
        twoFactorFailuresPerAccount: { max: 6, windowMs: 15 * 60_000 },
      },
    },
  });

  it('opens again once the window has passed (injected clock)', async () => {
    const user = await createUser(ctx);
    const { secret } = await enable(ctx, user);
    nextStep(ctx);
    const challenge = await challengeFor(ctx, user);
    const wrong = (await codeAt(ctx, secret)) === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 3; attempt += 1) await codeStep(ctx, challenge, wrong);
    expect((await codeStep(ctx, challenge, await codeAt(ctx, secret))).statusCode).toBe(429);
    ctx.clock.advance(15 * 60_000);
    const open = await codeStep(ctx, await challengeFor(ctx, user), await codeAt(ctx, secret));
    expect(open.statusCode).toBe(200);
  });
});

describe('superusers must enrol when REQUIRE_SUPERUSER_2FA is on (TOTP-ADMIN-1)', () => {
  const { ctx, admin } = useTestContext({ env: { REQUIRE_SUPERUSER_2FA: 'true' } });

  it('refuses admin calls with two_factor_enrollment_required until the superuser enrols', async () => {
    const refused = await ctx.app.inject({ url: `${API}/users/`, headers: admin.headers });
    expect(refused.statusCode).toBe(403);
    expect(codeOf(refused)).toBe('two_factor_enrollment_required');
    // The superuser's own account and its Security settings still answer.
    expect((await ctx.app.inject({ url: `${API}/users/me`, headers: admin.headers })).statusCode).toBe(200);
    const status = await ctx.app.inject({ url: `${API}/users/me/two-factor`, headers: admin.headers });
    expect(status.json()).toEqual({ enabled: false, recovery_codes_left: 0, required: true });

    // A plain user is told what they always were: no permission.
    const user = await createUser(ctx);
    const plain = await ctx.app.inject({ url: `${API}/users/`, headers: user.headers });
    expect(plain.statusCode).toBe(403);
    expect(codeOf(plain)).toBe('permission_denied');

    await enable(ctx, admin);
    const allowed = await ctx.app.inject({ url: `${API}/users/`, headers: admin.headers });
    expect(allowed.statusCode).toBe(200);
  });
});

describe('REQUIRE_SUPERUSER_2FA off (ENVIRONMENT=local default)', () => {
  const { ctx, admin } = useTestContext();

  it('lets a superuser without two-factor sign-in use admin calls', async () => {
    expect(ctx.config.requireSuperuserTwoFactor).toBe(false);
    expect((await ctx.app.inject({ url: `${API}/users/`, headers: admin.headers })).statusCode).toBe(200);
  });
});
