import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';

const html = { accept: 'text/html,application/xhtml+xml' };

describe('static web app', () => {
  let ctx: TestContext;
  let webDistDir: string;
  beforeAll(async () => {
    webDistDir = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    writeFileSync(path.join(webDistDir, 'index.html'), '<html>spa shell</html>');
    writeFileSync(path.join(webDistDir, 'about-us.html'), '<html>prerendered about us</html>');
    mkdirSync(path.join(webDistDir, 'assets'));
    writeFileSync(path.join(webDistDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(webDistDir, 'assets', 'app-abc123.js.br'), brotliCompressSync('console.log(1)'));
    writeFileSync(path.join(webDistDir, 'sitemap.xml'), '<urlset></urlset>');
    writeFileSync(path.join(webDistDir, 'sitemap.xml.gz'), gzipSync('<urlset></urlset>'));
    ctx = await createTestContext({ config: { webDistDir } });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(webDistDir, { recursive: true, force: true });
  });

  it('serves a prerendered page for its extension-less path, revalidated on each visit', async () => {
    const response = await ctx.app.inject({ url: '/about-us', headers: html });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe('<html>prerendered about us</html>');
  });

  it('serves the SPA shell for routes without a prerendered page, and for /', async () => {
    for (const url of ['/', '/settings', '/login?next=1', '/no-such-page']) {
      const response = await ctx.app.inject({ url, headers: html });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe('<html>spa shell</html>');
    }
  });

  it('caches fingerprinted assets for good', async () => {
    const response = await ctx.app.inject('/assets/app-abc123.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the precompressed copy to a browser that accepts it, the plain file otherwise', async () => {
    const brotli = await ctx.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    const sitemap = await ctx.app.inject({ url: '/sitemap.xml', headers: { 'accept-encoding': 'gzip' } });
    expect(sitemap.headers['content-encoding']).toBe('gzip');
    expect(sitemap.headers['content-type']).toContain('xml');
    expect(gunzipSync(sitemap.rawPayload).toString()).toBe('<urlset></urlset>');
    const plain = await ctx.app.inject({ url: '/sitemap.xml' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('<urlset></urlset>');
    // A prerendered page is still found by its extension-less path when compression is offered.
    const page = await ctx.app.inject({ url: '/about-us', headers: { ...html, 'accept-encoding': 'br, gzip' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe('<html>prerendered about us</html>');
  });

  it('answers a JSON 404 for unknown files and API paths, never the shell', async () => {
    const file = await ctx.app.inject('/assets/missing.js');
    expect(file.statusCode).toBe(404);
    expect(file.json()).toEqual({ detail: 'Not Found' });
    const api = await ctx.app.inject({ url: '/api/v1/about-us', headers: html });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Not Found' });
  });
});
