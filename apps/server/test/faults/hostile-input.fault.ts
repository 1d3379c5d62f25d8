import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMITS } from '../../src/lib/body-limits.js';
import { rawRequest } from '../raw-http.js';
import { countStatuses, report } from './measure.js';
import { createFaultDatabase, startServerProcess, type ServerProcess } from './server-process.js';

/** The slow-body case waits for this deadline; the server's default is 30 s. */
const REQUEST_TIMEOUT_SECONDS = 3;
/** What "bounded time" means for every hostile request here. */
const BOUND_MS = 10_000;
/** Each raw request here resolves on the answer's head. */
const untilHead = { until: 'head', timeoutMs: BOUND_MS * 3 } as const;

/** A JSON object of as many short keys as fit in `bytes`. */
function keysFilling(bytes: number): string {
  const members: string[] = [];
  let size = 2;
  for (let index = 0; size + 12 < bytes; index += 1) {
    const member = `"k${index}":0`;
    members.push(member);
    size += member.length + 1;
  }
  return `{${members.join(',')}}`;
}

function nested(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

describe('hostile requests', () => {
  let database: Awaited<ReturnType<typeof createFaultDatabase>>;
  let server: ServerProcess;
  let port: number;
  let token: string;

  beforeAll(async () => {
    database = await createFaultDatabase();
    server = await startServerProcess({
      DATABASE_URL: database.url,
      REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_SECONDS),
    });
    port = Number(new URL(server.baseUrl).port);
    token = await server.superuserToken();
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  /** Probes /healthz while `work` runs: the server must keep serving others meanwhile. */
  async function whileServing<T>(
    work: () => Promise<T>,
  ): Promise<{ result: T; probes: number; slowestProbeMs: number; failedProbes: number }> {
    let done = false;
    let probes = 0;
    let failedProbes = 0;
    let slowestProbeMs = 0;
    const prober = (async () => {
      while (!done) {
        const started = performance.now();
        try {
          const response = await fetch(`${server.baseUrl}/healthz`, { signal: AbortSignal.timeout(BOUND_MS) });
          if (response.status !== 200) failedProbes += 1;
          await response.arrayBuffer();
        } catch {
          failedProbes += 1;
        }
        slowestProbeMs = Math.max(slowestProbeMs, performance.now() - started);
        probes += 1;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    try {
      const result = await work();
      return { result, probes, slowestProbeMs: Math.round(slowestProbeMs), failedProbes };
    } finally {
      done = true;
      await prober;
    }
  }

  async function postJson(path: string, body: string, contentLength?: number) {
    const started = performance.now();
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(contentLength === undefined ? {} : { 'content-length': String(contentLength) }),
      },
      body,
      signal: AbortSignal.timeout(BOUND_MS),
    });
    const text = await response.text();
    return {
      status: response.status,
      ms: Math.round(performance.now() - started),
      detail: (JSON.parse(text) as { detail?: unknown }).detail,
    };
  }

  it('refuses bodies nested 10^5 and 2·10^4 deep, and 10^6 keys, in bounded time', async () => {
    const cases = {
      'nesting 100000': nested(100_000),
      'nesting 20000': nested(20_000),
      'nesting 65': nested(65),
      '1000000 keys': `{${Array.from({ length: 1_000_000 }, (_, i) => `"k${i}":0`).join(',')}}`,
      // As wide as the route's body limit allows: parsed and refused by validation, still cheap.
      'keys at the body limit': keysFilling(BODY_LIMITS.default),
    };
    const figures: Record<string, unknown> = {};
    const { result, ...serving } = await whileServing(async () => {
      const answers: Record<string, Awaited<ReturnType<typeof postJson>>> = {};
      for (const [name, body] of Object.entries(cases))
        answers[name] = await postJson('/api/v1/authorization/roles', body);
      return answers;
    });
    for (const [name, answer] of Object.entries(result)) figures[name] = { status: answer.status, ms: answer.ms };
    report('hostile-bodies', { ...figures, ...serving, alive: server.exit === undefined });
    for (const answer of Object.values(result)) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      // A string, or the 422 list of what is wrong.
      expect(typeof answer.detail === 'string' || (Array.isArray(answer.detail) && answer.detail.length > 0)).toBe(
        true,
      );
      expect(answer.ms).toBeLessThan(BOUND_MS);
    }
    expect(result['nesting 100000']?.status).toBe(413);
    expect(result['nesting 20000']?.status).toBe(400);
    expect(result['1000000 keys']?.status).toBe(413);
    expect(result['keys at the body limit']?.status).toBe(422);
    expect(serving.failedProbes).toBe(0);
    expect(server.exit).toBeUndefined();
  });

  it('refuses a 100 MB body by its announced length, a body trickled in, 10 000 query parameters and a 64 KB header', async () => {
    const { result, ...serving } = await whileServing(async () => {
      const announced = await rawRequest(
        port,
        `POST /api/v1/authorization/roles HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n`,
        { chunks: [Buffer.from('{"name":"')], ...untilHead },
      );
      const trickled = await rawRequest(
        port,
        `POST /api/v1/authorization/roles HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
        { chunks: Array.from({ length: 1000 }, () => Buffer.from(' ')), gapMs: 100, ...untilHead },
      );
      const query = Array.from({ length: 10_000 }, (_, i) => `p${i}=${i}`).join('&');
      const manyParams = await rawRequest(
        port,
        `GET /api/v1/users/?${query} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`,
        untilHead,
      );
      const bigHeader = await rawRequest(
        port,
        `GET /api/v1/users/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nX-Padding: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
        untilHead,
      );
      return { announced, trickled, manyParams, bigHeader };
    });
    report('hostile-requests', {
      ...Object.fromEntries(
        Object.entries(result).map(([name, answer]) => [name, { status: answer.status, ms: Math.round(answer.ms) }]),
      ),
      ...serving,
      alive: server.exit === undefined,
    });
    expect(result.announced.status).toBe(413);
    expect(result.announced.ms).toBeLessThan(BOUND_MS);
    // Kept alive, so a client still sending reads the 413 instead of a reset (plugins/draining.ts).
    expect(result.announced.head).not.toContain('connection: close');
    expect(result.trickled.status).toBe(408);
    expect(result.trickled.ms).toBeLessThan(REQUEST_TIMEOUT_SECONDS * 1000 + BOUND_MS);
    expect(result.manyParams.status).toBeGreaterThanOrEqual(400);
    expect(result.manyParams.status).toBeLessThan(500);
    expect(result.bigHeader.status).toBe(431);
    expect(serving.failedProbes).toBe(0);
    expect(server.exit).toBeUndefined();
  });

  it('refuses bodies nested 10^5 and 2·10^4 deep (over and within the body limit) on every JSON route', async () => {
    const document = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
    };
    const bodies = [nested(100_000), nested(20_000)];
    const { result, ...serving } = await whileServing(async () => {
      const answers: { route: string; status: number; ms: number; detail: unknown }[] = [];
      for (const [path, operations] of Object.entries(document.paths)) {
        for (const [[method, operation], body] of Object.entries(operations).flatMap((entry) =>
          bodies.map((body) => [entry, body] as const),
        )) {
          if (!operation.requestBody?.content?.['application/json']) continue;
          const url = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
          const started = performance.now();
          const response = await fetch(`${server.baseUrl}${url}`, {
            method: method.toUpperCase(),
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body,
            signal: AbortSignal.timeout(BOUND_MS),
          });
          const text = await response.text();
          answers.push({
            route: `${method.toUpperCase()} ${path}`,
            status: response.status,
            ms: Math.round(performance.now() - started),
            detail: (JSON.parse(text) as { detail?: unknown }).detail,
          });
        }
      }
      return answers;
    });
    report('deep-body-every-json-route', {
      routes: result.length,
      statuses: countStatuses(result),
      slowestMs: Math.max(...result.map((answer) => answer.ms)),
      ...serving,
      alive: server.exit === undefined,
    });
    expect(result.length).toBeGreaterThan(10);
    for (const answer of result) {
      expect(answer.status, answer.route).toBeGreaterThanOrEqual(400);
      expect(answer.status, answer.route).toBeLessThan(500);
      expect(typeof answer.detail, answer.route).toBe('string');
    }
    expect(serving.failedProbes).toBe(0);
    expect(server.exit).toBeUndefined();
  });
});
