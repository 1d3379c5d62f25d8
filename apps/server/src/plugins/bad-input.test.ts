import { randomUUID } from 'node:crypto';
import {
  ASSIGNMENT_SET_MAX,
  ERROR_STATUS,
  isErrorCode,
  PLAN_DESCRIPTION_MAX,
  PLAN_FEATURE_MAX_LENGTH,
  PLAN_FEATURES_MAX,
  PLAN_NAME_MAX,
  TENANT_MEMBERS_MAX,
} from '@dataplatform/contract';
import Fastify from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createUser,
  login,
  openTestDatabase,
  useTestContext,
  type TestContext,
  type TestUser,
} from '../../test/harness.js';
import { users } from '../db/schema/index.js';
import { errorHandlerPlugin } from './error-handler.js';
import { BODY_LIMITS } from '../lib/body-limits.js';

type Response = Awaited<ReturnType<TestContext['app']['inject']>>;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface ValidationBody {
  detail: { loc: (string | number)[]; msg: string; type: string }[];
}

/**
 * A client error with a body the web client can read: a non-empty string or a 422 item list, and a
 * code the contract gives exactly this status.
 */
function expectClientError(response: Response, status?: number) {
  if (status !== undefined) expect(response.statusCode, response.body).toBe(status);
  expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, response.body).toBeLessThan(500);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json<{ detail: unknown; code: unknown }>();
  expect(isErrorCode(body.code) && ERROR_STATUS[body.code], response.body).toBe(response.statusCode);
  if (Array.isArray(body.detail)) {
    expect(body.detail.length).toBeGreaterThan(0);
    for (const item of body.detail as ValidationBody['detail']) {
      expect(Array.isArray(item.loc)).toBe(true);
      expect(typeof item.msg).toBe('string');
      expect(typeof item.type).toBe('string');
    }
  } else {
    expect(typeof body.detail).toBe('string');
    expect(body.detail).not.toBe('');
  }
}

const validSignup = {
  email: 'valid-signup@example.com',
  password: 'long-enough-1',
  confirm_password: 'long-enough-1',
  full_name: 'Valid Person',
};

describe('bad input', () => {
  const { ctx, admin } = useTestContext();
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser(ctx);
  });

  const send = (
    method: Method,
    url: string,
    options: { payload?: string | object; headers?: Record<string, string> } = {},
  ) => ctx.app.inject({ method, url, ...options });
  const json = (payload: string) => ({ payload, headers: { 'content-type': 'application/json' } });

  it('answers a 422 in the FastAPI shape, one item per field, for missing fields', async () => {
    const response = await send('POST', '/api/v1/users/signup', { payload: {} });
    expectClientError(response, 422);
    const body = response.json<ValidationBody>();
    expect(body.detail.map((item) => item.loc)).toEqual([
      ['body', 'email'],
      ['body', 'password'],
      ['body', 'confirm_password'],
      ['body', 'full_name'],
    ]);
    expect(body.detail[0]).toEqual({ loc: ['body', 'email'], msg: 'Email is required', type: 'invalid_type' });

    const invalidEmail = await send('POST', '/api/v1/users/signup', { payload: { ...validSignup, email: 'nope' } });
    expect(invalidEmail.json()).toEqual({
      detail: [{ loc: ['body', 'email'], msg: 'Invalid email address', type: 'invalid_format' }],
      code: 'validation_failed',
    });

    const emptyLogin = await send('POST', '/api/v1/login/access-token', {
      payload: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectClientError(emptyLogin, 422);
    expect(emptyLogin.json<ValidationBody>().detail.map((item) => item.loc)).toEqual([
      ['body', 'username'],
      ['body', 'password'],
    ]);
  });

  it('refuses values of the wrong type with a 422 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...validSignup, email: 42 }, 'email'],
      [{ ...validSignup, email: ['a@example.com'] }, 'email'],
      [{ ...validSignup, email: { $gt: '' } }, 'email'],
      [{ ...validSignup, password: true }, 'password'],
      [{ ...validSignup, full_name: null }, 'full_name'],
      [{ ...validSignup, full_name: { first: 'A' } }, 'full_name'],
    ];
    for (const [payload, field] of cases) {
      const response = await send('POST', '/api/v1/users/signup', { payload });
      expectClientError(response, 422);
      expect(response.json<ValidationBody>().detail[0]?.loc).toEqual(['body', field]);
    }
    const flags = await send('POST', '/api/v1/users/', {
      headers: admin.headers,
      payload: { email: 'typed@example.com', password: 'long-enough-1', is_active: 'yes', is_superuser: 1 },
    });
    expectClientError(flags, 422);
    expect(flags.json<ValidationBody>().detail.map((item) => item.loc)).toEqual([
      ['body', 'is_active'],
      ['body', 'is_superuser'],
    ]);
    for (const payload of ['null', '[]', '"a string"', '12', 'true']) {
      expectClientError(await send('POST', '/api/v1/users/signup', json(payload)), 422);
    }
  });

  it('answers 400 with a detail for malformed or empty JSON', async () => {
    for (const payload of ['{"email":', '{email: "a@example.com"}', "{'a': 1}", '{"a":1}}', '\u0000']) {
      const response = await send('POST', '/api/v1/users/signup', json(payload));
      expectClientError(response, 400);
      expect(response.json()).toEqual({ detail: 'Request body is not valid JSON', code: 'invalid_json' });
    }
    const empty = await send('POST', '/api/v1/users/signup', json(''));
    expectClientError(empty, 400);
    // Prototype pollution attempts are refused by the parser.
    expectClientError(await send('POST', '/api/v1/users/signup', json('{"__proto__":{"is_superuser":true}}')), 400);
    expectClientError(
      await send('POST', '/api/v1/users/signup', json('{"constructor":{"prototype":{"is_superuser":true}}}')),
      400,
    );
  });

  it('answers 415 for a body type the API does not speak', async () => {
    for (const contentType of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'image/png']) {
      const response = await send('POST', '/api/v1/users/signup', {
        payload: JSON.stringify(validSignup),
        headers: { 'content-type': contentType },
      });
      expectClientError(response, 415);
      expect(response.json()).toEqual({ detail: 'Unsupported media type', code: 'unsupported_media_type' });
    }
    const rows = await ctx.database.db.select().from(users).where(eq(users.email, validSignup.email));
    expect(rows).toHaveLength(0);
  });

  it('answers 413 for a body over the limit, JSON or form', async () => {
    const bigJson = await send(
      'POST',
      '/api/v1/users/signup',
      json(JSON.stringify({ ...validSignup, full_name: 'x'.repeat(1_100_000) })),
    );
    expectClientError(bigJson, 413);
    expect(bigJson.json()).toEqual({ detail: 'Request body is too large', code: 'body_too_large' });
    const bigForm = await send('POST', '/api/v1/login/access-token', {
      payload: `username=a%40example.com&password=${'x'.repeat(1_100_000)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectClientError(bigForm, 413);
  });

  it('gives each route a body limit that fits its largest valid body and refuses a byte more', async () => {
    // The worst valid spelling of a value: every character as a six-byte \\uXXXX escape.
    const escaped = (length: number) => `"${'\\u00e9'.repeat(length)}"`;
    const uuids = (count: number) => Array.from({ length: count }, () => randomUUID());
    const routes: { url: string; method: Method; limit: number; largest: string }[] = [
      {
        method: 'POST',
        url: '/api/v1/contact/',
        limit: BODY_LIMITS.default,
        largest: `{"name":${escaped(100)},"email":"big@example.com","company":${escaped(200)},"phone":${escaped(50)},"subject":${escaped(200)},"message":${escaped(5000)}}`,
      },
      {
        method: 'POST',
        url: '/api/v1/subscriptions/plans',
        limit: BODY_LIMITS.plan,
        largest: `{"name":${escaped(PLAN_NAME_MAX)},"description":${escaped(PLAN_DESCRIPTION_MAX)},"price":1,"billing_period":"monthly","features":[${Array.from({ length: PLAN_FEATURES_MAX }, () => escaped(PLAN_FEATURE_MAX_LENGTH)).join(',')}]}`,
      },
      {
        method: 'PUT',
        url: `/api/v1/authorization/user/${user.id}/roles`,
        limit: BODY_LIMITS.idSet,
        largest: JSON.stringify(uuids(ASSIGNMENT_SET_MAX), null, 2),
      },
      {
        method: 'PUT',
        url: `/api/v1/tenants/${randomUUID()}/members`,
        limit: BODY_LIMITS.tenantMembers,
        largest: JSON.stringify(uuids(TENANT_MEMBERS_MAX), null, 2),
      },
    ];
    for (const route of routes) {
      expect(Buffer.byteLength(route.largest), route.url).toBeLessThanOrEqual(route.limit);
      const largest = await send(route.method, route.url, {
        payload: route.largest,
        headers: { ...admin.headers, 'content-type': 'application/json' },
      });
      expect(largest.statusCode, `${route.url}: ${largest.body.slice(0, 200)}`).not.toBe(413);
      expect(largest.statusCode, route.url).toBeLessThan(500);

      const tooLarge = await send(route.method, route.url, {
        payload: `[${' '.repeat(route.limit - 1)}]`,
        headers: { ...admin.headers, 'content-type': 'application/json' },
      });
      expectClientError(tooLarge, 413);
    }
    // The default is what any other route gets, forms included.
    const bigLogin = await send('POST', '/api/v1/login/access-token', {
      payload: `username=a%40example.com&password=${'x'.repeat(BODY_LIMITS.default)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectClientError(bigLogin, 413);
  });

  it('refuses overlong strings that fit in the body limit with a 422', async () => {
    const longEmail = await send('POST', '/api/v1/users/signup', {
      payload: { ...validSignup, email: `${'a'.repeat(10_000)}@example.com` },
    });
    expectClientError(longEmail, 422);
    expect(longEmail.json<ValidationBody>().detail[0]?.loc).toEqual(['body', 'email']);
    const longPassword = await send('POST', '/api/v1/login/access-token', {
      payload: { username: user.email, password: 'x'.repeat(50_000) },
    });
    expectClientError(longPassword, 422);
    const longName = await send('POST', '/api/v1/users/signup', {
      payload: { ...validSignup, full_name: 'x'.repeat(50_000) },
    });
    expectClientError(longName, 422);
  });

  it('answers 422 for huge, negative, fractional or non-numeric paging values', async () => {
    for (const query of [
      'skip=1e400',
      'skip=99999999999999999999999',
      'limit=1e10',
      'limit=-1',
      'skip=-5',
      'skip=0x10&limit=abc',
      'limit=NaN',
      'limit=Infinity',
      'skip=1.5',
      'skip=1&skip=2',
      'skip=%E0%A4%A',
    ]) {
      const response = await send('GET', `/api/v1/users/?${query}`, { headers: admin.headers });
      expectClientError(response, 422);
      expect(response.json<ValidationBody>().detail[0]?.loc[0], query).toBe('query');
    }
  });

  it('answers 422 for a path id that is not a uuid, whatever it holds', async () => {
    for (const id of [
      'not-a-uuid',
      '123',
      '3f0e9a8c-1b2d-4c5e-8f70-123456789ab',
      '3f0e9a8c-1b2d-4c5e-8f70-123456789abcd',
      encodeURIComponent("' OR 1=1 --"),
      encodeURIComponent('../../etc/passwd'),
    ]) {
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const response = await send(method, `/api/v1/users/${id}`, {
          headers: admin.headers,
          ...(method === 'PATCH' ? { payload: { full_name: 'Any Name' } } : {}),
        });
        expectClientError(response, 422);
        expect(response.json<ValidationBody>().detail[0]?.loc).toEqual(['path', 'user_id']);
      }
    }
  });

  it('answers 400 for a malformed URL and 414 for an overlong path segment, with a detail', async () => {
    const malformed = await send('GET', '/api/v1/users/%E0%A4%A', { headers: admin.headers });
    expectClientError(malformed, 400);
    const overlong = await send('POST', `/api/v1/password-recovery/${'a'.repeat(600)}@example.com`);
    expectClientError(overlong, 414);
  });

  it('refuses NUL characters anywhere with a 422 naming the field, before the database sees them', async () => {
    const cases: [Method, string, object | undefined, Record<string, string>, (string | number)[]][] = [
      ['POST', '/api/v1/users/signup', { ...validSignup, full_name: 'Nul\u0000Person' }, {}, ['body', 'full_name']],
      [
        'POST',
        '/api/v1/login/access-token',
        { username: 'a\u0000@example.com', password: 'whatever-1' },
        {},
        ['body', 'username'],
      ],
      ['PATCH', '/api/v1/users/me', { full_name: 'x\u0000' }, user.headers, ['body', 'full_name']],
      ['GET', '/api/v1/users/?skip=%00', undefined, admin.headers, ['query', 'skip']],
      ['POST', '/api/v1/users/signup', { ...validSignup, extra: { 'k\u0000': 1 } }, {}, ['body', 'extra', 'k\u0000']],
    ];
    for (const [method, url, payload, headers, loc] of cases) {
      const response = await send(method, url, { headers, ...(payload ? { payload } : {}) });
      expectClientError(response, 422);
      expect(response.json<ValidationBody>().detail[0]?.loc, url).toEqual(loc);
    }
  });

  it('refuses NUL characters in the path with a 400, as a malformed URL', async () => {
    for (const [url, headers] of [
      ['/api/v1/password-recovery/a%00b@example.com', {}],
      ['/api/v1/password-recovery-html-content/a%00b@example.com', admin.headers],
    ] as [string, Record<string, string>][]) {
      const response = await send('POST', url, { headers });
      expectClientError(response, 400);
      expect(response.json()).toEqual({
        detail: 'Invalid path: it must not contain NUL characters',
        code: 'bad_request',
      });
    }
  });

  it('does not walk a body kept as bytes for NUL characters, byte by byte', async () => {
    // The webhook keeps its body as a Buffer; enumerating one visits every byte as a key of its own
    // (a 1 MiB body: a million keys, about 100 MB and half a second of the event loop, unsigned).
    const enumerated = vi.spyOn(Object, 'keys');
    try {
      const response = await send('POST', '/api/v1/subscriptions/webhook', {
        payload: Buffer.alloc(BODY_LIMITS.webhook, 0x61),
        headers: { 'content-type': 'application/octet-stream', 'stripe-signature': 't=1,v1=00' },
      });
      expectClientError(response, 400);
      const bytesWalked = enumerated.mock.calls.filter(([target]) => ArrayBuffer.isView(target)).length;
      expect(bytesWalked).toBe(0);
    } finally {
      enumerated.mockRestore();
    }
  });

  it('answers 404 with a detail for unknown API paths and methods', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/nope'],
      ['POST', '/api/v1/nope'],
      ['DELETE', '/api/v1/users/me/extra'],
      ['PUT', '/api/v1/users/me'],
      ['GET', '/api/v1/users'],
      ['GET', '/api/v2/users/me'],
      ['GET', '/api/v1/login/access-token'],
    ] as [Method, string][]) {
      const response = await send(method, url, { headers: admin.headers });
      expectClientError(response, 404);
      expect(response.json()).toEqual({ detail: 'Not Found', code: 'not_found' });
    }
  });

  it('never answers 5xx to garbage sent to any API route, signed in or not', async () => {
    const doc = (await send('GET', '/api/v1/openapi.json')).json<{ paths: Record<string, Record<string, unknown>> }>();
    const garbage: { payload?: string; headers?: Record<string, string> }[] = [
      {},
      json('null'),
      json('[]'),
      json('"text"'),
      json('{}'),
      json('{"email": {"$ne": null}, "password": [], "id": -1, "skip": 1e400}'),
      json(`{"email": "${'é'.repeat(3000)}@example.com", "full_name": "${'🙂'.repeat(2000)}"}`),
      json('{"broken": '),
      json('{"email": "a\\u0000@example.com", "full_name": "\\u0000", "username": "\\u0000", "token": "\\u0000"}'),
      { payload: 'a=1&a=2&username[]=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    ];
    const pathValues = ['00000000-0000-4000-8000-000000000000', 'x', '9'.repeat(40), 'nobody%40example.com'];
    let checked = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      const urls = [...new Set(pathValues.map((value) => template.replace(/\{[^}]+\}/g, value)))];
      for (const method of Object.keys(operations).map((m) => m.toUpperCase() as Method)) {
        // A fresh session per operation: an earlier one may have logged out or deleted something.
        const superuser = `Bearer ${await login(ctx, admin.email, admin.password)}`;
        for (const url of urls) {
          for (const variant of garbage) {
            for (const authorization of [undefined, superuser]) {
              const response = await send(method, `${url}?skip=-1&limit=1e999`, {
                ...(variant.payload !== undefined ? { payload: variant.payload } : {}),
                headers: { ...variant.headers, ...(authorization ? { authorization } : {}) },
              });
              const who = authorization ? 'superuser' : 'anonymous';
              const where = `${method} ${url} ${variant.payload ?? ''} (${who}) -> ${response.statusCode} ${response.body}`;
              expect(response.statusCode, where).toBeLessThan(500);
              if (response.statusCode >= 400) {
                expect(response.json<{ detail: unknown }>().detail, where).toBeTruthy();
              }
              checked += 1;
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  }, 180_000);
});

describe('the error handler', () => {
  it('answers a value the database refuses with a 400, not a 500', async () => {
    const database = await openTestDatabase();
    const app = Fastify({ logger: false });
    await app.register(errorHandlerPlugin);
    app.get('/cast/:value', async (request) => {
      const { value } = request.params as { value: string };
      await database.db.execute(sql`select ${value}::integer`);
      return { ok: true };
    });
    try {
      expect((await app.inject('/cast/12')).statusCode).toBe(200);
      const response = await app.inject('/cast/not-a-number');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: 'Invalid input', code: 'bad_request' });
    } finally {
      await app.close();
      await database.drop();
    }
  });
});
