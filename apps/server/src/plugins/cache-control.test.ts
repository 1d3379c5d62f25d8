import { beforeAll, describe, expect, it } from 'vitest';
import { createUser, loginRequest, useTestContext, type TestUser } from '../../test/harness.js';

const SOME_ID = '00000000-0000-4000-8000-000000000000';

interface Operation {
  method: string;
  path: string;
}

/** Every operation of the OpenAPI document; the ones that end a session or an account last. */
function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
  );
  const last = (op: Operation) => (op.path.endsWith('/logout') || op.path.endsWith('/users/me') ? 1 : 0);
  return operations.sort((a, b) => last(a) - last(b));
}

describe('Cache-Control on personal answers', () => {
  const { ctx, admin: superuser } = useTestContext();
  let plain: TestUser;
  beforeAll(async () => {
    plain = await createUser(ctx);
  });

  it('says no-store on the token answer', async () => {
    const response = await loginRequest(ctx, plain.email, plain.password);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('says no-store on every answer to an authenticated request, whatever the operation and outcome', async () => {
    const document = (await ctx.app.inject('/api/v1/openapi.json')).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(40);
    const missing: string[] = [];
    let answers = 0;
    for (const user of [superuser, plain]) {
      for (const { method, path } of operations) {
        const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
        const response = await ctx.app.inject({
          method: method as 'GET',
          url: path.replace(/\{[^}]+\}/g, SOME_ID),
          headers: { ...user.headers, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
          ...(hasBody ? { payload: '{}' } : {}),
        });
        answers += 1;
        if (!String(response.headers['cache-control'] ?? '').includes('no-store')) {
          missing.push(`${method} ${path} -> ${response.statusCode} ${String(response.headers['cache-control'])}`);
        }
      }
    }
    expect(answers).toBe(operations.length * 2);
    expect(missing).toEqual([]);
  });
});
