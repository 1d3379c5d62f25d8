import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { authMessages, contactMessages, userMessages } from '@dataplatform/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { defaultRateLimits, type Config } from '../src/config.js';
import { createTestContext, createUser, type TestContext, type TestUser } from './harness.js';
import { deleteRedisKeys, openRedisInspector, TEST_REDIS_URL, uniqueRedisPrefix } from './redis.js';
import { waitUntil } from './wait.js';

/**
 * A TCP proxy in front of the real Redis that a test can cut (the listener closed and every
 * connection through it dropped, so reconnections are refused) and restore on the same port:
 * an outage of Redis as the app sees it, without touching the server other tests use.
 */
async function startRedisProxy() {
  const target = new URL(TEST_REDIS_URL);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  async function listen(): Promise<void> {
    const next = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => socket.destroy());
        socket.on('close', () => {
          sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    server = next;
    port = (next.address() as AddressInfo).port;
  }

  async function cut(): Promise<void> {
    const closing = server;
    server = undefined;
    // The listener closes once its connections have: drop them, and new ones are refused.
    const closed = closing && new Promise<void>((resolve) => closing.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  }

  await listen();
  const url = new URL(TEST_REDIS_URL);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return { url: url.toString(), cut, restore: listen, close: cut };
}

/** A port nothing listens on: taken from the system, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface LogLine {
  level: number;
  msg: string;
}

describe('rate limits and the login throttle shared through Redis (decision 049)', () => {
  let ctx: TestContext;
  let user: TestUser;
  /** Looks at Redis as it is, without the app's key prefix. */
  let inspector: Redis;
  const prefixes: string[] = [];
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    // The database, SMTP server and a user, shared by every instance the tests start.
    ctx = await createTestContext();
    user = await createUser(ctx);
    inspector = await openRedisInspector();
  });

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    // Nothing left behind in the machine's Redis.
    for (const prefix of prefixes.splice(0)) await deleteRedisKeys(inspector, prefix);
  });

  afterAll(async () => {
    inspector?.disconnect();
    await ctx?.close();
  });

  /**
   * An instance of the app as server.ts would build it, with REDIS_URL set and production's
   * budgets, on the shared database. Instances started with the same prefix share their counts;
   * each test takes a prefix of its own so none sees another's.
   */
  async function startInstance(options: { redisUrl?: string; prefix: string; logs?: LogLine[] }) {
    const config: Config = {
      ...ctx.config,
      logLevel: options.logs ? 'info' : 'silent',
      redis: { url: options.redisUrl ?? TEST_REDIS_URL, keyPrefix: options.prefix },
      rateLimits: defaultRateLimits,
    };
    const logs = options.logs;
    const app = await buildApp(config, {
      database: ctx.database,
      clock: ctx.clock,
      ...(logs ? { logStream: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) } } : {}),
    });
    apps.push(app);
    await app.ready();
    return app;
  }

  function newPrefix(): string {
    const prefix = uniqueRedisPrefix();
    prefixes.push(prefix);
    return prefix;
  }

  const loginOn = (app: FastifyInstance, remoteAddress: string, username: string, password: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/login/access-token',
      payload: new URLSearchParams({ username, password }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress,
    });

  const contactOn = (app: FastifyInstance, remoteAddress: string, n: number) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/contact/',
      payload: {
        name: 'Shared Limits',
        email: `sender-${n}@example.com`,
        subject: 'Counted across instances',
        message: 'This message is counted wherever it arrives.',
      },
      remoteAddress,
    });

  function expectTooManyRequests(response: LightMyRequestResponse, windowMs: number) {
    expect(response.statusCode).toBe(429);
    expect(response.json()).toEqual({ detail: authMessages.tooManyRequests, code: 'rate_limited' });
    const retryAfter = Number(response.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000);
  }

  function expectUnavailable(response: LightMyRequestResponse, detail: string) {
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ detail, code: 'rate_limit_unavailable' });
    expect(response.headers['retry-after']).toBe('5');
  }

  describe('with Redis up, two instances count as one', () => {
    const failuresPerAddress = defaultRateLimits.loginFailuresPerAccountAndIp;

    it('refuses the 11th failed login at an account from one address, whichever instance it reaches', async () => {
      expect(failuresPerAddress.max).toBe(10);
      const prefix = newPrefix();
      const instances = [await startInstance({ prefix }), await startInstance({ prefix })];
      const ip = '198.51.100.7';
      for (let i = 0; i < failuresPerAddress.max; i += 1) {
        const response = await loginOn(instances[i % 2]!, ip, user.email, `wrong-${i}`);
        expect(response.statusCode, `attempt ${i + 1}`).toBe(400);
      }
      expectTooManyRequests(await loginOn(instances[0]!, ip, user.email, 'wrong-again'), failuresPerAddress.windowMs);
      // Held on the other instance too, even with the right password; another address is not held.
      expectTooManyRequests(await loginOn(instances[1]!, ip, user.email, user.password), failuresPerAddress.windowMs);
      expect((await loginOn(instances[1]!, '198.51.100.8', user.email, user.password)).statusCode).toBe(200);
      // The counters are Redis's, under the prefix, with the window as their expiry.
      const ttl = await inspector.pttl(`${prefix}login-failures:pair:${user.email} ${ip}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(failuresPerAddress.windowMs);
    });

    it('holds guesses sent at once to both instances to the budget', async () => {
      const prefix = newPrefix();
      const instances = [await startInstance({ prefix }), await startInstance({ prefix })];
      const responses = await Promise.all(
        Array.from({ length: failuresPerAddress.max + 2 }, (_, i) =>
          loginOn(instances[i % 2]!, '192.0.2.99', user.email, `parallel-${i}`),
        ),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 400)).toHaveLength(failuresPerAddress.max);
      expect(statuses.filter((status) => status === 429)).toHaveLength(2);
    });

    it('lets a right password on one instance clear that address’s failures on the other', async () => {
      const prefix = newPrefix();
      const [first, second] = [await startInstance({ prefix }), await startInstance({ prefix })];
      const ip = '203.0.113.70';
      for (let i = 0; i < failuresPerAddress.max - 1; i += 1) {
        expect((await loginOn(first, ip, user.email, `typo-${i}`)).statusCode).toBe(400);
      }
      expect((await loginOn(second, ip, user.email, user.password)).statusCode).toBe(200);
      // A fresh budget for this address: as many failures again before the next 429.
      for (let i = 0; i < failuresPerAddress.max; i += 1) {
        expect((await loginOn(first, ip, user.email, `typo-again-${i}`)).statusCode).toBe(400);
      }
      expectTooManyRequests(await loginOn(second, ip, user.email, 'one-too-many'), failuresPerAddress.windowMs);
    });

    it('holds the contact form’s per-address limit across instances', async () => {
      const rule = defaultRateLimits.contactPerIp;
      const prefix = newPrefix();
      const instances = [await startInstance({ prefix }), await startInstance({ prefix })];
      const ip = '198.51.100.90';
      for (let i = 0; i < rule.max; i += 1) {
        expect((await contactOn(instances[i % 2]!, ip, i)).statusCode, `message ${i + 1}`).toBe(201);
      }
      expectTooManyRequests(await contactOn(instances[1]!, ip, 99), rule.windowMs);
      expectTooManyRequests(await contactOn(instances[0]!, ip, 100), rule.windowMs);
      expect((await contactOn(instances[0]!, '198.51.100.91', 101)).statusCode).toBe(201);
    });
  });

  describe('with Redis unreachable', () => {
    it('refuses sign-in, recovery, reset, sign-up and contact with a 503, and still serves reads', async () => {
      const logs: LogLine[] = [];
      const app = await startInstance({
        redisUrl: `redis://127.0.0.1:${await closedPort()}`,
        prefix: newPrefix(),
        logs,
      });
      const ip = '198.51.100.120';
      expectUnavailable(await loginOn(app, ip, user.email, user.password), authMessages.signInUnavailable);
      expectUnavailable(await loginOn(app, ip, user.email, 'a-guess'), authMessages.signInUnavailable);
      expectUnavailable(
        await app.inject({ method: 'POST', url: '/api/v1/password-recovery/someone@example.com', remoteAddress: ip }),
        authMessages.recoveryUnavailable,
      );
      expectUnavailable(
        await app.inject({
          method: 'POST',
          url: '/api/v1/reset-password/',
          payload: { token: 'x'.repeat(43), new_password: 'brand-new-password-1' },
          remoteAddress: ip,
        }),
        authMessages.recoveryUnavailable,
      );
      expectUnavailable(
        await app.inject({
          method: 'POST',
          url: '/api/v1/users/signup',
          payload: {
            email: 'newcomer@example.com',
            password: 'long-enough-1',
            confirm_password: 'long-enough-1',
            full_name: 'New Comer',
          },
          remoteAddress: ip,
        }),
        userMessages.signupUnavailable,
      );
      expectUnavailable(await contactOn(app, ip, 1), contactMessages.unavailable);

      // A signed-in person keeps reading: nothing on that path counts in Redis.
      const me = await app.inject({ method: 'GET', url: '/api/v1/users/me', headers: user.headers });
      expect(me.statusCode).toBe(200);
      expect(me.json<{ email: string }>().email).toBe(user.email);

      // Still ready (every instance shares this Redis; pulling them all would stop reads too), and says why.
      const ready = await app.inject('/readyz');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'degraded', database: 'ok', redis: 'unavailable' });

      // One line for the outage, however many requests and reconnection attempts failed.
      const outageLines = logs.filter((line) => line.msg.startsWith('Redis unavailable'));
      expect(outageLines).toHaveLength(1);
      expect(outageLines[0]!.level).toBe(50);
      expect(logs.filter((line) => line.msg === 'unhandled error')).toEqual([]);
    });

    it('recovers by itself when Redis is back, and says so once in the log', async () => {
      const proxy = await startRedisProxy();
      try {
        const logs: LogLine[] = [];
        const prefix = newPrefix();
        const app = await startInstance({ redisUrl: proxy.url, prefix, logs });
        const ip = '203.0.113.140';
        expect((await app.inject('/readyz')).json()).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
        expect((await loginOn(app, ip, user.email, 'before-the-outage')).statusCode).toBe(400);

        await proxy.cut();
        expectUnavailable(await loginOn(app, ip, user.email, user.password), authMessages.signInUnavailable);
        expectUnavailable(
          await app.inject({ method: 'POST', url: '/api/v1/password-recovery/someone@example.com', remoteAddress: ip }),
          authMessages.recoveryUnavailable,
        );
        expect((await app.inject({ method: 'GET', url: '/api/v1/users/me', headers: user.headers })).statusCode).toBe(
          200,
        );
        expect((await app.inject('/readyz')).json()).toMatchObject({ status: 'degraded', redis: 'unavailable' });

        await proxy.restore();
        await waitUntil(async () => (await app.inject('/readyz')).json<{ redis: string }>().redis === 'ok', {
          what: 'Redis to be back',
        });
        // The count kept in Redis through the outage: one failure before it, one more now.
        expect((await loginOn(app, ip, user.email, 'after-the-outage')).statusCode).toBe(400);
        expect(await inspector.get(`${prefix}login-failures:pair:${user.email} ${ip}`)).toBe('2');
        expect((await loginOn(app, ip, user.email, user.password)).statusCode).toBe(200);

        const outage = logs.filter((line) => line.msg.startsWith('Redis unavailable'));
        const back = logs.filter((line) => line.msg === 'Redis available again');
        expect(outage).toHaveLength(1);
        expect(outage[0]!.level).toBe(50);
        expect(back).toHaveLength(1);
        expect(back[0]!.level).toBe(30);
      } finally {
        await proxy.close();
      }
    });
  });
});
