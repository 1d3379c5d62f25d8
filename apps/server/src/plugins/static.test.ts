import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';
import { INLINE_SCRIPT_HASHES_FILE } from './static.js';

const prePaintHash = 'sha256-RgqezAfRqtGMpnWZBKlvAeQj1f/TRzRoFxRPxAuWkGQ=';
const html = { accept: 'text/html,application/xhtml+xml' };

describe('static web app', () => {
  let ctx: TestContext;
  let webDistDir: string;
  beforeAll(async () => {
    webDistDir = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    writeFileSync(path.join(webDistDir, 'index.html'), '<html>spa shell</html>');
    mkdirSync(path.join(webDistDir, 'about-us'));
    writeFileSync(path.join(webDistDir, 'about-us', 'index.html'), '<html>prerendered about us</html>');
    writeFileSync(
      path.join(webDistDir, 'about-us', 'index.html.br'),
      brotliCompressSync('<html>prerendered about us</html>'),
    );
    writeFileSync(path.join(webDistDir, 'about-us', 'index.html.gz'), gzipSync('<html>prerendered about us</html>'));
    mkdirSync(path.join(webDistDir, 'assets'));
    writeFileSync(path.join(webDistDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(webDistDir, 'assets', 'app-abc123.js.br'), brotliCompressSync('console.log(1)'));
    writeFileSync(path.join(webDistDir, 'sitemap.xml'), '<urlset></urlset>');
    writeFileSync(path.join(webDistDir, INLINE_SCRIPT_HASHES_FILE), JSON.stringify([prePaintHash]));
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

  it('sends a browser asking for /favicon.ico to the product’s SVG icon', async () => {
    const response = await ctx.app.inject({ url: '/favicon.ico' });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('/favicon.svg');
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
  });

  it('serves the SPA shell for routes without a prerendered page, and for /', async () => {
    for (const url of [
      '/',
      '/settings',
      '/settings/billing',
      '/admin/users',
      '/login?next=1',
      '/reset-password?token=x',
    ]) {
      const response = await ctx.app.inject({ url, headers: html });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe('<html>spa shell</html>');
    }
  });

  it('answers an unknown page path with 404 and the shell, which shows the "not found" screen', async () => {
    for (const url of ['/no-such-page', '/login/extra', '/settingsx?tab=1']) {
      const response = await ctx.app.inject({ url, headers: html });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toContain('text/html');
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
  });

  it('sends a prerendered page compressed, found by its extension-less path with or without a trailing slash', async () => {
    for (const url of ['/about-us', '/about-us/']) {
      const brotli = await ctx.app.inject({ url, headers: { ...html, 'accept-encoding': 'br, gzip' } });
      expect(brotli.statusCode, url).toBe(200);
      expect(brotli.headers['content-encoding'], url).toBe('br');
      expect(brotli.headers['content-type'], url).toContain('text/html');
      expect(brotli.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(brotli.rawPayload).toString(), url).toBe('<html>prerendered about us</html>');
    }
    const gzip = await ctx.app.inject({ url: '/about-us', headers: { ...html, 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe('<html>prerendered about us</html>');
  });

  it('answers a JSON 404 for unknown files and API paths, never the shell', async () => {
    const file = await ctx.app.inject('/assets/missing.js');
    expect(file.statusCode).toBe(404);
    expect(file.json()).toEqual({ detail: 'Not Found', code: 'not_found' });
    const api = await ctx.app.inject({ url: '/api/v1/about-us', headers: html });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Not Found', code: 'not_found' });
  });

  it("lets the web build's inline script run through its CSP hash, on pages and API answers alike", async () => {
    for (const url of ['/about-us', '/healthz']) {
      const response = await ctx.app.inject({ url, headers: html });
      expect(response.headers['content-security-policy'], url).toContain(`script-src 'self' '${prePaintHash}'`);
    }
  });
});

describe('static web app behind the build link (scripts/build.mjs)', () => {
  let ctx: TestContext;
  let workspace: string;
  beforeAll(async () => {
    workspace = mkdtempSync(path.join(tmpdir(), 'web-builds-'));
    for (const [build, body] of [
      ['.dist-first', 'first build'],
      ['.dist-second', 'second build'],
    ] as const) {
      mkdirSync(path.join(workspace, build, 'assets'), { recursive: true });
      writeFileSync(path.join(workspace, build, 'index.html'), `<html>${body}</html>`);
      writeFileSync(path.join(workspace, build, 'assets', `${build.slice(6)}.js`), body);
    }
    symlinkSync('.dist-first', path.join(workspace, 'dist'));
    ctx = await createTestContext({ config: { webDistDir: path.join(workspace, 'dist') } });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('keeps serving the build it started with when a new build takes the link', async () => {
    const staged = path.join(workspace, 'dist-next');
    symlinkSync('.dist-second', staged);
    renameSync(staged, path.join(workspace, 'dist'));

    const shell = await ctx.app.inject({ url: '/settings', headers: html });
    expect(shell.statusCode).toBe(200);
    expect(shell.body).toBe('<html>first build</html>');
    const asset = await ctx.app.inject('/assets/first.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('first build');
    expect((await ctx.app.inject('/assets/second.js')).statusCode).toBe(404);
  });
});
