import { authMessages } from '@dataplatform/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE, recover, reset } from '../../../test/auth-requests.js';
import { createTestContext, createUser, type TestContext } from '../../../test/harness.js';
import { deleteRedisKeys, openRedisInspector, TEST_REDIS_URL, uniqueRedisPrefix } from '../../../test/redis.js';
import { defaultRateLimits, type Config } from '../../config.js';

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
