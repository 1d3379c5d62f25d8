import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';
import { rawRequest } from '../../test/raw-http.js';

describe('errors raised before routing', () => {
  let ctx: TestContext;
  let port: number;
  beforeAll(async () => {
    ctx = await createTestContext({ config: { requestTimeoutMs: 1_000 } });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => ctx.close());

  it('answers headers too large with a 431 in the product shape', async () => {
    const answer = await rawRequest(
      port,
      `GET /api/v1/users/me HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    );
    expect(answer.status).toBe(431);
    expect(answer.head).toContain('content-type: application/json');
    expect(answer.body).toEqual({ detail: 'Request headers are too large', code: 'headers_too_large' });
  });

  it('answers a 20 KB path with a 431 in the product shape', async () => {
    const answer = await rawRequest(port, `GET /api/v1/${'p'.repeat(20 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual({ detail: 'Request headers are too large', code: 'headers_too_large' });
  });

  it('answers a malformed request line with a 400 in the product shape', async () => {
    const answer = await rawRequest(port, 'NOT AN HTTP REQUEST\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ detail: 'Malformed request', code: 'bad_request' });
  });

  it('answers headers that never finish arriving with a 408 in the product shape', async () => {
    const answer = await rawRequest(port, 'GET /api/v1/users/me HTTP/1.1\r\nHost: x\r\n');
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual({ detail: 'The request did not arrive in time', code: 'request_timeout' });
  });
});
