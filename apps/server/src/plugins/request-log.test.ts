import type { TenantPublic } from '@dataplatform/contract';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { createTestContext, createUser, loginRequest, type TestContext, type TestUser } from '../../test/harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface LogLine {
  msg?: string;
  level?: number;
  reqId?: string;
  method?: string;
  route?: string;
  status?: number;
  durationMs?: number;
  userId?: string | null;
  tenantId?: string | null;
  ip?: string;
}

/** A log destination as pino writes to it: one JSON document per write. */
function captureLog() {
  const raw: string[] = [];
  return {
    stream: { write: (line: string) => void raw.push(line) },
    raw,
    lines: () => raw.map((line) => JSON.parse(line) as LogLine),
    /** Every line logged under this request id. */
    of(reqId: string) {
      return raw.map((line) => JSON.parse(line) as LogLine).filter((line) => line.reqId === reqId);
    },
  };
}

/**
 * For a describe: an app built with `trustProxy` (as TRUST_PROXY sets it) and its request log
 * captured, before the tests and closed after them; `inject` sends it a request.
 */
function useAppBehindProxies(trustProxy: Config['trustProxy']) {
  const log = captureLog();
  let ctx: TestContext | undefined;
  let app: FastifyInstance | undefined;

  beforeAll(async () => {
    ctx = await createTestContext();
    app = await buildApp(
      { ...ctx.config, trustProxy, logLevel: 'info' },
      { database: ctx.database, clock: ctx.clock, logStream: log.stream },
    );
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });
  return { log, inject: (request: InjectOptions) => app!.inject(request) };
}

describe('request logs and request ids', () => {
  const log = captureLog();
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await createTestContext({ env: { LOG_LEVEL: 'info' }, logStream: log.stream });
    admin = await createUser(ctx, { isSuperuser: true });
  });
  afterAll(() => ctx.close());

  /** The one line of the request that got this response, checked to be the only one. */
  function lineOf(response: { headers: Record<string, unknown> }): LogLine {
    const reqId = response.headers['x-request-id'];
    expect(reqId).toMatch(UUID);
    const lines = log.of(reqId as string);
    expect(lines, JSON.stringify(lines)).toHaveLength(1);
    return lines[0]!;
  }

  it('writes one JSON line per request: id, user, tenant, route template, status and duration', async () => {
    const member = await createUser(ctx);
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/tenants/',
      headers: admin.headers,
      payload: { name: `Logged tenant ${Date.now()}` },
    });
    expect(created.statusCode).toBe(201);
    const tenant = created.json<TenantPublic>();
    const members = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/tenants/${tenant.id}/members`,
      headers: admin.headers,
      payload: [member.id],
    });
    expect(members.statusCode).toBe(200);

    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/users/${member.id}`,
      headers: { ...member.headers, 'x-tenant-id': tenant.id },
    });
    expect(response.statusCode).toBe(200);
    const line = lineOf(response);
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      reqId: response.headers['x-request-id'],
      method: 'GET',
      route: '/api/v1/users/:user_id',
      status: 200,
      userId: member.id,
      tenantId: tenant.id,
      ip: '127.0.0.1',
    });
    expect(line.durationMs).toBeGreaterThan(0);
    // The raw URL (ids, e-mail addresses in recovery paths, query strings) is not logged.
    expect(JSON.stringify(line)).not.toContain(`/users/${member.id}`);
  });

  it('gives an anonymous request null user and tenant', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(lineOf(response)).toMatchObject({ route: '/healthz', status: 200, userId: null, tenantId: null });
  });

  it.each([
    ['an unauthenticated call', { method: 'GET', url: '/api/v1/users/me' }, 401, '/api/v1/users/me'],
    ['an unknown path', { method: 'GET', url: '/api/v1/no-such-thing' }, 404, 'unmatched'],
    [
      'invalid input',
      { method: 'POST', url: '/api/v1/users/signup', payload: { email: 'not-an-email', password: 'x' } },
      422,
      '/api/v1/users/signup',
    ],
    ['a malformed URL, which runs no hook', { method: 'GET', url: '/api/v1/users/%E0%A4%A' }, 400, 'unmatched'],
  ] as const)('echoes the id of %s and logs it once', async (_, request, status, route) => {
    const response = await ctx.app.inject(request);
    expect(response.statusCode).toBe(status);
    expect(lineOf(response)).toMatchObject({ msg: 'request completed', route, status });
  });

  it('ignores an incoming X-Request-Id when no proxy is trusted (TRUST_PROXY unset)', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'chosen-by-a-client' },
    });
    expect(response.headers['x-request-id']).not.toBe('chosen-by-a-client');
    expect(lineOf(response).reqId).toBe(response.headers['x-request-id']);
    expect(log.of('chosen-by-a-client')).toEqual([]);
  });

  it('keeps passwords and tokens out of the log', async () => {
    const password = 'a-password-to-keep-out-of-logs';
    const user = await createUser(ctx, { password });
    const login = await loginRequest(ctx, user.email, password);
    expect(login.statusCode).toBe(200);
    const token = login.json<{ access_token: string }>().access_token;
    expect((await loginRequest(ctx, user.email, `${password}-wrong`)).statusCode).toBe(400);
    const newPassword = 'another-password-kept-out';
    const changed = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me/password',
      headers: { authorization: `Bearer ${token}`, cookie: 'session=a-cookie-kept-out' },
      payload: { current_password: password, new_password: newPassword, confirm_password: newPassword },
    });
    expect(changed.statusCode).toBe(200);

    expect(lineOf(login)).toMatchObject({ route: '/api/v1/login/access-token', status: 200 });
    const everything = log.raw.join('\n');
    for (const secret of [password, newPassword, token, user.token, 'a-cookie-kept-out']) {
      expect(everything).not.toContain(secret);
    }
  });
});

describe('behind a trusted proxy (TRUST_PROXY=true)', () => {
  const { log, inject } = useAppBehindProxies(true);

  it("keeps the proxy's X-Request-Id: in the log and echoed back", async () => {
    const id = 'b6c3e9f0a1d24c58.edge-7:42';
    const response = await inject({ method: 'GET', url: '/api/v1/users/me', headers: { 'x-request-id': id } });
    expect(response.statusCode).toBe(401);
    expect(response.headers['x-request-id']).toBe(id);
    expect(log.of(id)).toMatchObject([{ msg: 'request completed', status: 401 }]);
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['with spaces', 'two words'],
    ['with quotes and angle brackets', '"><script>'],
    ['empty', ''],
  ])('replaces an id that is %s with a new UUID', async (_, id) => {
    const response = await inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': id } });
    expect(response.headers['x-request-id']).toMatch(UUID);
    expect(log.of(response.headers['x-request-id'] as string)).toHaveLength(1);
  });

  it('accepts an id of 128 characters', async () => {
    const id = 'f'.repeat(128);
    const response = await inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': id } });
    expect(response.headers['x-request-id']).toBe(id);
  });
});

describe('behind listed proxies (TRUST_PROXY=10.0.0.0/8,::1)', () => {
  const { log, inject } = useAppBehindProxies(['10.0.0.0/8', '::1']);

  it("keeps a listed proxy's X-Request-Id and client address", async () => {
    const response = await inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress: '10.1.2.3',
      headers: { 'x-request-id': 'from-the-proxy', 'x-forwarded-for': '198.51.100.7' },
    });
    expect(response.headers['x-request-id']).toBe('from-the-proxy');
    expect(log.of('from-the-proxy')).toMatchObject([{ msg: 'request completed', ip: '198.51.100.7' }]);
  });

  it('ignores both headers from a client that reaches the server directly', async () => {
    const response = await inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress: '203.0.113.9',
      headers: { 'x-request-id': 'chosen-by-a-client', 'x-forwarded-for': '198.51.100.7' },
    });
    expect(response.headers['x-request-id']).toMatch(UUID);
    expect(log.of(response.headers['x-request-id'] as string)).toMatchObject([{ ip: '203.0.113.9' }]);
  });
});
