import { readdir } from 'node:fs/promises';
import type net from 'node:net';
import type { StudioExtract } from '@dataplatform/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, type TestContext, type TestUser } from '../../test/harness.js';
import { rawRequest } from '../../test/raw-http.js';
import { createTenant } from '../../test/tenant-fixtures.js';
import { uploadsDir } from '../modules/studio/extracts.service.js';

const REQUEST_TIMEOUT_MS = 1_000;
const UPLOAD_TIMEOUT_MS = 5_000;

describe('how long a body may take to arrive', () => {
  let ctx: TestContext;
  let port: number;
  let superuser: TestUser;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext({
      config: { requestTimeoutMs: REQUEST_TIMEOUT_MS },
      studio: { extractUploadTimeoutMs: UPLOAD_TIMEOUT_MS },
    });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as net.AddressInfo).port;
    superuser = await createUser(ctx, { isSuperuser: true });
    tenantId = (await createTenant(ctx, superuser)).id;
  }, 60_000);
  afterAll(() => ctx.close());

  const timedOut = { detail: 'The request did not arrive in time', code: 'request_timeout' };

  function post(path: string, contentType: string, length: number, extra = ''): string {
    return (
      `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${superuser.headers.authorization}\r\n` +
      `Content-Type: ${contentType}\r\nContent-Length: ${length}\r\n${extra}\r\n`
    );
  }

  it('answers a JSON body still arriving after REQUEST_TIMEOUT_SECONDS with a 408 in the product shape', async () => {
    const body = '{"name":"trickled-role"}'.split('');
    const answer = await rawRequest(port, post('/api/v1/authorization/roles', 'application/json', body.length), {
      chunks: body,
      gapMs: 200,
    });
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual(timedOut);
    // Well before Node’s own deadline for the server (the upload’s), which it checks once a second.
    expect(answer.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 2_000);
    const roles = await ctx.app.inject({ url: '/api/v1/authorization/roles?limit=1000', headers: superuser.headers });
    expect(roles.body).not.toContain('trickled-role');
  });

  it('lets an extract upload take longer than REQUEST_TIMEOUT_SECONDS to arrive, and keeps it', async () => {
    const lines = ['id,amount\n', ...Array.from({ length: 12 }, (_, i) => `${i},${i * 10}\n`)];
    const length = lines.join('').length;
    const answer = await rawRequest(
      port,
      post(
        '/api/v1/studio/extracts?name=trickled',
        'text/csv',
        length,
        `X-Tenant-ID: ${tenantId}\r\nConnection: close\r\n`,
      ),
      { chunks: lines, gapMs: 250 },
    );
    expect(answer.ms).toBeGreaterThan(3 * REQUEST_TIMEOUT_MS);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject<Partial<StudioExtract>>({ name: 'trickled', rows: 12, bytes: length });
  });

  it('answers an extract upload still arriving after STUDIO_EXTRACT_UPLOAD_TIMEOUT_SECONDS with a 408, keeping nothing', async () => {
    const answer = await rawRequest(
      port,
      post('/api/v1/studio/extracts?name=stalled', 'text/csv', 1_000, `X-Tenant-ID: ${tenantId}\r\n`),
      { chunks: Array.from({ length: 40 }, () => 'x\n'), gapMs: 250 },
    );
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual(timedOut);
    expect(answer.ms).toBeGreaterThan(UPLOAD_TIMEOUT_MS);
    expect(answer.ms).toBeLessThan(UPLOAD_TIMEOUT_MS + 2_000);
    const extracts = await ctx.app.inject({
      url: '/api/v1/studio/extracts',
      headers: { ...superuser.headers, 'x-tenant-id': tenantId },
    });
    expect(extracts.body).not.toContain('stalled');
    // The part received is removed once the service sees the connection go.
    await expect
      .poll(async () => (await readdir(uploadsDir(ctx.config.studio.dir, tenantId))).filter((f) => f.endsWith('.part')))
      .toEqual([]);
  });

  it('drains a body after an early answer for REQUEST_TIMEOUT_SECONDS at most, then closes', async () => {
    // Announced past the route's limit: a 413 before a byte is read, on a connection kept open so the
    // client reads it (decision 035), but the rest of the body is not waited for beyond the deadline.
    const answer = await rawRequest(port, post('/api/v1/authorization/roles', 'application/json', 10 * 1024 * 1024), {
      chunks: Array.from({ length: 40 }, () => ' '),
      gapMs: 200,
    });
    expect(answer.status).toBe(413);
    expect(answer.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 2_000);
  });

  it('drains an extract upload refused early for REQUEST_TIMEOUT_SECONDS at most, not its own deadline', async () => {
    const announced = ctx.config.studio.extractMaxBytes + 1;
    const answer = await rawRequest(
      port,
      post('/api/v1/studio/extracts?name=too_big', 'text/csv', announced, `X-Tenant-ID: ${tenantId}\r\n`),
      { chunks: Array.from({ length: 40 }, () => 'x\n'), gapMs: 200 },
    );
    expect(answer.status).toBe(413);
    expect(answer.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 2_000);
  });
});
