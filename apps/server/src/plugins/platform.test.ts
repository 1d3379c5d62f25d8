import { computeSecurityHeaders, helmetOptionsFor, isApiCall } from './security-headers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync } from 'node:zlib';
import { createTestContext, createUser, type TestContext } from '../../test/harness.js';

describe('platform', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('answers /healthz and /readyz', async () => {
    expect((await ctx.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await ctx.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('answers 404 with a detail for an unknown API path', async () => {
    const response = await ctx.app.inject('/api/v1/nope');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not Found', code: 'not_found' });
  });

  it('compresses a JSON answer over 1 KiB for a client that accepts it, and only then', async () => {
    const admin = await createUser(ctx, { isSuperuser: true });
    for (let i = 0; i < 12; i += 1) await createUser(ctx);
    const list = (headers: Record<string, string>) =>
      ctx.app.inject({ url: '/api/v1/users/?limit=100', headers: { ...admin.headers, ...headers } });
    const plain = await list({});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const brotli = await list({ 'accept-encoding': 'br, gzip' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.rawPayload.length).toBeLessThan(plain.body.length / 2);
    expect(JSON.parse(brotliDecompressSync(brotli.rawPayload).toString())).toEqual(plain.json());
    // A small answer is not worth it.
    const me = await ctx.app.inject({
      url: '/api/v1/users/me',
      headers: { ...admin.headers, 'accept-encoding': 'br' },
    });
    expect(me.headers['content-encoding']).toBeUndefined();
  });

  it('serves the OpenAPI document and the docs page', async () => {
    const doc = await ctx.app.inject('/api/v1/openapi.json');
    expect(doc.statusCode).toBe(200);
    const paths = Object.keys(doc.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toContain('/api/v1/login/access-token');
    const docs = await ctx.app.inject('/api/v1/docs');
    expect([200, 302]).toContain(docs.statusCode);
  });

  it('sends the security headers on every response, errors included', async () => {
    for (const url of ['/healthz', '/api/v1/nope', '/api/v1/users/me']) {
      const response = await ctx.app.inject(url);
      const csp = String(response.headers['content-security-policy']);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      // The test app's FRONTEND_HOST is https: HSTS applies.
      expect(response.headers['strict-transport-security'], url).toMatch(/max-age=/);
      expect(response.headers['x-powered-by'], url).toBeUndefined();
    }
  });

  it("gives documents the page policy and the API's JSON a policy that allows nothing", async () => {
    const page = String((await ctx.app.inject('/healthz')).headers['content-security-policy']);
    expect(page).toContain("default-src 'self'");
    expect(page).toContain("base-uri 'none'");
    expect(page).toContain("object-src 'none'");
    expect(page).toContain('upgrade-insecure-requests');
    // The docs page is a document: swagger-ui's own policy (it needs its inline styles), not the API's.
    const docs = await ctx.app.inject('/api/v1/docs/');
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-security-policy']).toContain("default-src 'self'");
    expect(docs.headers['x-frame-options']).toBe('SAMEORIGIN');
    for (const url of ['/api/v1/nope', '/api/v1/users/me', '/api/v1/openapi.json']) {
      const response = await ctx.app.inject(url);
      expect(response.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
    }
    expect(isApiCall('/api/v1/docs/static/index.html')).toBe(false);
    expect(isApiCall('/api/v1/users/?q=docs')).toBe(true);
    expect(isApiCall('/api/v1')).toBe(false);
  });

  it("allows Stripe's origins only when Stripe is the billing provider", async () => {
    // This app bills through the offline sandbox: no third-party origin at all.
    const sandbox = String((await ctx.app.inject('/healthz')).headers['content-security-policy']);
    expect(sandbox).not.toContain('stripe');
    expect(sandbox).toMatch(/connect-src 'self'(;|$)/);
    const stripe = computeSecurityHeaders(helmetOptionsFor(false, [], { allowStripe: true }))[
      'content-security-policy'
    ];
    expect(stripe).toContain("script-src 'self' https://js.stripe.com https://*.js.stripe.com");
    expect(stripe).toContain('frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com');
    expect(stripe).toContain("connect-src 'self' https://api.stripe.com");
  });

  it('neither upgrades requests nor pins HTTPS when the product is served over plain HTTP', () => {
    const plain = computeSecurityHeaders(helmetOptionsFor(false));
    expect(plain['content-security-policy']).toContain("default-src 'self'");
    expect(plain['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(plain['strict-transport-security']).toBeUndefined();
    const secure = computeSecurityHeaders(helmetOptionsFor(true));
    expect(secure['content-security-policy']).toContain('upgrade-insecure-requests');
    expect(secure['strict-transport-security']).toMatch(/max-age=/);
  });

  it('allows exactly the inline scripts whose hashes the web build lists, and no other inline script', () => {
    const hash = 'sha256-RgqezAfRqtGMpnWZBKlvAeQj1f/TRzRoFxRPxAuWkGQ=';
    const csp = computeSecurityHeaders(helmetOptionsFor(false, [hash]))['content-security-policy'];
    expect(csp).toContain(`script-src 'self' '${hash}'`);
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    const withoutBuild = computeSecurityHeaders(helmetOptionsFor(false))['content-security-policy'];
    expect(withoutBuild).toMatch(/script-src 'self'(;|$)/);
    expect(() => helmetOptionsFor(false, ["'unsafe-inline'"])).toThrow(/sha256/);
    expect(() => helmetOptionsFor(false, ["sha256-x' 'unsafe-eval"])).toThrow(/sha256/);
  });
});
