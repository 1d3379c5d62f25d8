import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  renderNginxConfig,
  startNginx,
  type NginxProcess,
  type Upstream,
} from '../../scripts/fleet/launcher.js';
import { createWebDist, report, requestOnce, type WebDist } from './fleet-harness.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The upstream connection's client port: the same one twice means nginx kept it alive. */
  remotePort: number;
  bodyBytes: number;
}

/**
 * A stand-in instance that records what nginx sends it. `reset`: it reads each request and then
 * drops the connection without answering, as a process dying mid-request does.
 */
async function startUpstream(behaviour: 'answer' | 'reset') {
  const seen: Seen[] = [];
  /** Called with a request's URL as its body's first bytes arrive. */
  const bodyStarted = new Set<(url: string) => void>();
  const server = http.createServer((request, response) => {
    let bodyBytes = 0;
    request.on('data', (chunk: Buffer) => {
      if (bodyBytes === 0) for (const listener of bodyStarted) listener(request.url ?? '');
      bodyBytes += chunk.length;
    });
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        remotePort: request.socket.remotePort ?? 0,
        bodyBytes,
      });
      if (behaviour === 'reset') {
        request.socket.destroy();
        return;
      }
      if (request.url === '/big') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('plain text the instance did not compress\n'.repeat(100));
        return;
      }
      response.writeHead(request.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ url: request.url }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    /** Resolves when a request to `url` has begun to arrive with its body. */
    bodyArriving: (url: string) =>
      new Promise<void>((resolve) => {
        const listener = (started: string) => {
          if (started !== url) return;
          bodyStarted.delete(listener);
          resolve();
        };
        bodyStarted.add(listener);
      }),
    ids: () => new Set(seen.map((request) => String(request.headers['x-request-id']))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('nginx in front of the instances (deploy/nginx/nginx.conf.template)', () => {
  let dir: string;
  let web: WebDist;
  let nginx: NginxProcess;
  let base: string;
  let listen: string;
  let answering: Awaited<ReturnType<typeof startUpstream>>;
  let resetting: Awaited<ReturnType<typeof startUpstream>>;

  const configure = (upstreams: Upstream[], maxFails?: number) =>
    renderNginxConfig({ listen, staticRoot: web.root, upstreams, workerProcesses: 1, maxFails });
  const at = (port: number): Upstream => ({ host: '127.0.0.1', port });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'dp-nginx-test-'));
    web = createWebDist(dir);
    answering = await startUpstream('answer');
    resetting = await startUpstream('reset');
    listen = `127.0.0.1:${await freePort()}`;
    base = `http://${listen}`;
    nginx = await startNginx(dir, configure([at(answering.port)]));
  });

  afterAll(async () => {
    await nginx?.stop();
    await answering?.close();
    await resetting?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes the client address, the scheme and a request id to the instances, and no address the client wrote', async () => {
    const spoofed = await requestOnce(`${base}/api/v1/users/me`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(spoofed.status).toBe(200);
    const first = answering.seen.at(-1)!;
    expect(first.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(first.headers['x-forwarded-proto']).toBe('http');
    expect(first.headers.host).toBe(listen.split(':')[0]);
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);

    // A client's own request id is kept when it is a sane token, replaced otherwise.
    await requestOnce(`${base}/kept`, { headers: { 'x-request-id': 'client-trace-42' } });
    expect(answering.seen.at(-1)!.headers['x-request-id']).toBe('client-trace-42');
    await requestOnce(`${base}/replaced`, { headers: { 'x-request-id': 'not a token; <script>' } });
    expect(answering.seen.at(-1)!.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);

    // Connections to the instances are kept alive between requests (no Connection header sent).
    expect(first.headers.connection).toBeUndefined();
    const ports = answering.seen.slice(-3).map((request) => request.remotePort);
    expect(new Set(ports).size).toBeLessThan(ports.length);
  });

  it('serves hashed assets from disk, gzipped, cached for a year, and hands a missing one to the instances', async () => {
    const before = answering.seen.length;
    const asset = await fetch(`${base}${web.assetPath}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe(web.assetBody);
    expect(asset.headers.get('content-encoding')).toBe('gzip');
    expect(asset.headers.get('content-type')).toBe('application/javascript');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(asset.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(answering.seen.length).toBe(before);

    const missing = await requestOnce(`${base}/assets/missing-0000.js`);
    expect(missing.status).toBe(200);
    expect(answering.seen.at(-1)!.url).toBe('/assets/missing-0000.js');
  });

  it('compresses text the instances sent uncompressed', async () => {
    const big = await fetch(`${base}/big`, { headers: { 'accept-encoding': 'gzip' } });
    expect(big.status).toBe(200);
    expect(big.headers.get('content-encoding')).toBe('gzip');
    expect(big.headers.get('vary')).toContain('Accept-Encoding');
    expect(await big.text()).toContain('plain text the instance did not compress');
  });

  it('passes an extract upload of any size to the instances as it arrives, and stops other large bodies', async () => {
    const upload = '/api/v1/studio/extracts?name=big';
    const megabyte = Buffer.alloc(1024 * 1024, 'a');
    // Half the body, then a wait until the instance is reading it: nginx did not hold it back.
    const arriving = answering.bodyArriving(upload);
    const answered = new Promise<number>((resolve, reject) => {
      const request = http.request(`${base}${upload}`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv', 'content-length': String(6 * megabyte.length) },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      for (let part = 0; part < 3; part += 1) request.write(megabyte);
      void arriving.then(() => {
        for (let part = 0; part < 3; part += 1) request.write(megabyte);
        request.end();
      });
    });
    expect(await answered).toBe(201);
    expect(answering.seen.at(-1)).toMatchObject({ url: upload, bodyBytes: 6 * megabyte.length });

    // Elsewhere a body over every route's limit never reaches an instance.
    const before = answering.seen.length;
    const other = await requestOnce(`${base}/api/v1/contact/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(3 * megabyte.length, 'b').toString(),
    });
    expect(other.status).toBe(413);
    expect(answering.seen.length).toBe(before);
  });

  it('tries the next instance when one cannot be reached, and re-sends only what may safely be sent again', async () => {
    const requests = 8;
    const send = (method: 'GET' | 'POST', label: string, index: number) =>
      requestOnce(`${base}/api/v1/${label}`, {
        method,
        headers: { 'x-request-id': `${label}-${index}`, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });

    // An instance that is down refuses the connection: nothing was sent, so even a POST moves on.
    // (max_fails=0: nginx keeps trying the dead one, so every request meets it in turn.)
    await nginx.reload(configure([at(await freePort()), at(answering.port)], 0));
    const refused = [];
    for (let index = 0; index < requests; index += 1) refused.push((await send('POST', 'refused', index)).status);
    expect(refused).toEqual(Array.from({ length: requests }, () => 201));
    const refusals = nginx.lines.filter((line) => line.includes('Connection refused')).length;
    expect(refusals).toBeGreaterThan(0);

    // An instance that takes the request and dies: a GET is sent to the next one, a POST is not
    // (the first one may have acted on it), and the client gets a 502 instead.
    await nginx.reload(configure([at(resetting.port), at(answering.port)], 0));
    const gets = [];
    for (let index = 0; index < requests; index += 1) gets.push((await send('GET', 'get', index)).status);
    const posts = [];
    for (let index = 0; index < requests; index += 1) posts.push((await send('POST', 'post', index)).status);
    const diedWith = resetting.ids();
    const answeredBy = answering.ids();
    const postsThatDied = [...diedWith].filter((id) => id.startsWith('post-'));
    const getsThatDied = [...diedWith].filter((id) => id.startsWith('get-'));
    report('nginx-retries', {
      refusedConnectionPosts: refused,
      connectionsRefused: refusals,
      gets,
      posts,
      getsRetriedElsewhere: getsThatDied.filter((id) => answeredBy.has(id)).length,
      postsThatDied: postsThatDied.length,
      postsSentTwice: postsThatDied.filter((id) => answeredBy.has(id)).length,
    });
    expect(gets).toEqual(Array.from({ length: requests }, () => 200));
    expect(getsThatDied.length).toBeGreaterThan(0);
    expect(getsThatDied.every((id) => answeredBy.has(id))).toBe(true);
    expect(postsThatDied.length).toBeGreaterThan(0);
    expect(postsThatDied.some((id) => answeredBy.has(id))).toBe(false);
    expect(posts.filter((status) => status === 502)).toHaveLength(postsThatDied.length);
  });
});
