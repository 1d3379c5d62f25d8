import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';
import { CENSORED, censorSecrets } from './log-redaction.js';

describe('censorSecrets', () => {
  it('censors secret-named keys at any depth and in arrays, whatever their case', () => {
    const fields = {
      userId: 'u1',
      token: 'top-level',
      body: { email: 'a@example.com', password: 'hunter2', card: { Number: '4242', cvc: '123' } },
      calls: [{ headers: { Authorization: 'Bearer abc', accept: 'json' } }],
    };
    expect(censorSecrets(fields)).toEqual({
      userId: 'u1',
      token: CENSORED,
      body: { email: 'a@example.com', password: CENSORED, card: { Number: CENSORED, cvc: CENSORED } },
      calls: [{ headers: { Authorization: CENSORED, accept: 'json' } }],
    });
    // The caller's object is never changed.
    expect(fields.body.password).toBe('hunter2');
    expect(fields.calls[0]!.headers.Authorization).toBe('Bearer abc');
  });

  it('answers the very same objects when nothing is secret (no copy per log line)', () => {
    const nested = { route: '/api/v1/users/me', tags: ['a', 'b'] };
    const fields = { reqId: 'r1', status: 200, nested, at: new Date(0) };
    const censored = censorSecrets(fields);
    expect(censored).toBe(fields);
    expect(censored.nested).toBe(nested);
  });

  it("censors an error's own fields and its cause, keeping its type, message and stack", () => {
    class ProviderError extends Error {}
    const cause = Object.assign(new Error('socket closed'), { config: { dburl: 'postgres://u:p@h/db' } });
    const error = Object.assign(new ProviderError('request failed', { cause }), {
      headers: { authorization: 'Bearer sk_live' },
      statusCode: 502,
    });
    const censored = censorSecrets({ err: error }).err as ProviderError & {
      headers: Record<string, string>;
      statusCode: number;
      cause: { config: Record<string, string>; message: string };
    };
    expect(censored).toBeInstanceOf(ProviderError);
    expect(censored.message).toBe('request failed');
    expect(censored.stack).toBe(error.stack);
    expect(censored.statusCode).toBe(502);
    expect(censored.headers.authorization).toBe(CENSORED);
    expect(censored.cause.message).toBe('socket closed');
    expect(censored.cause.config.dburl).toBe(CENSORED);
    expect(error.headers.authorization).toBe('Bearer sk_live');
    // An error with nothing secret is passed on as it is.
    const plain = new Error('plain');
    expect(censorSecrets({ err: plain }).err).toBe(plain);
  });

  it('stops at a depth no logged object reaches, so a cycle cannot recurse for ever', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(censorSecrets({ cyclic }).cyclic).toBe(cyclic);
  });
});

describe("the server's log lines", () => {
  const raw: string[] = [];
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({
      env: { LOG_LEVEL: 'info' },
      logStream: { write: (line: string) => void raw.push(line) },
    });
  });
  afterAll(() => ctx.close());

  it('carry no secret whatever object is logged, errors included', () => {
    const error = Object.assign(new Error('upstream refused'), {
      headers: { authorization: 'Bearer leaked-token' },
    });
    ctx.app.log.child({ tenantId: 't1' }).warn(
      {
        err: error,
        body: { email: 'a@example.com', new_password: 'Correct-Horse-1' },
        tenant: { dburl: 'postgres://x' },
      },
      'something went wrong',
    );
    const line = raw
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((entry) => entry.msg === 'something went wrong');
    expect(line).toMatchObject({
      tenantId: 't1',
      err: { type: 'Error', message: 'upstream refused', headers: { authorization: CENSORED } },
      body: { email: 'a@example.com', new_password: CENSORED },
      tenant: { dburl: CENSORED },
    });
    const text = raw.join('');
    for (const secret of ['leaked-token', 'Correct-Horse-1', 'postgres://x']) expect(text).not.toContain(secret);
  });
});
