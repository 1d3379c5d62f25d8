import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import {
  findExecutable,
  freePort,
  startFleet,
  startObjectStore,
  startRedis,
  type Fleet,
  type RedisProcess,
} from '../../scripts/fleet/launcher.js';
import { startSmtpServer, type TestSmtpServer } from '../smtp.js';

export const SUPERUSER = 'fleet-admin@example.com';
export const SUPERUSER_PASSWORD = 'fleet-admin-password-0123';
/** Shared by every instance, as a deployment must. */
export const SECRET_KEY = 'fleet-suite-secret-key-that-is-long-enough-0123456789';
/** The drain the instances keep on SIGTERM: long enough for the watcher (every 200 ms) and a reload. */
export const DRAIN_MS = 3_000;

/** Prints one figure line the way every fleet case reports them. */
export function report(name: string, figures: Record<string, unknown>): void {
  process.stdout.write(`[fleet] ${name}: ${JSON.stringify(figures)}\n`);
}

/** The PostgreSQL server the suite runs on (TEST_DATABASE_URL; the fleet config defaults it). */
function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('the fleet suite needs TEST_DATABASE_URL (a PostgreSQL server)');
  return url;
}

/** A new, empty database: the instances migrate it themselves, all starting at once. */
export async function createDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `dp_fleet_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: serverUrl() });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

export interface WebDist {
  root: string;
  /** `/assets/<hashed name>.js`, with a .gz copy beside it as the web build writes them. */
  assetPath: string;
  assetBody: string;
}

/**
 * A built web app in miniature, laid out as Vite and the prerenderer lay theirs out: the suite
 * needs no web build, only the layout nginx and the instances serve.
 */
export function createWebDist(dir: string): WebDist {
  const root = path.join(dir, 'web-dist');
  mkdirSync(path.join(root, 'assets'), { recursive: true });
  writeFileSync(
    path.join(root, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Fleet</title></head><body><div id="root"></div></body></html>\n',
  );
  const assetBody = `export const fleet = ${JSON.stringify('x'.repeat(4096))};\n`;
  const assetPath = '/assets/index-Fl33tH4sh.js';
  writeFileSync(path.join(root, assetPath), assetBody);
  writeFileSync(path.join(root, `${assetPath}.gz`), gzipSync(assetBody));
  return { root, assetPath, assetBody };
}

export interface TestFleet {
  fleet: Fleet;
  database: Awaited<ReturnType<typeof createDatabase>>;
  smtp: TestSmtpServer;
  /** Set when REDIS_URL was given or redis-server is installed; passed to every instance. */
  redisUrl: string | undefined;
  web: WebDist;
  dir: string;
  /** A client of the fleet's database, for what the test checks behind the API. */
  sql: pg.Pool;
  close(): Promise<void>;
}

/**
 * Two instances of the built server (by default) on a fresh database, nginx in front, a real SMTP
 * server on loopback, and Redis: REDIS_URL when set, else a redis-server of the suite's own (a
 * clean one, so counts from another run never leak in) when one is installed. Cases that need
 * shared state in Redis (rate limits across instances) read `redisUrl`.
 */
export async function startTestFleet(
  options: { instances?: number; env?: Record<string, string>; smtpAcceptDelayMs?: number } = {},
): Promise<TestFleet> {
  const dir = mkdtempSync(path.join(tmpdir(), 'dp-fleet-test-'));
  const web = createWebDist(dir);
  const database = await createDatabase();
  const smtp = await startSmtpServer({ acceptDelayMs: options.smtpAcceptDelayMs ?? 0 });
  let redis: RedisProcess | undefined;
  let redisUrl = process.env.REDIS_URL;
  if (!redisUrl && findExecutable('redis-server')) {
    redis = await startRedis(path.join(dir, 'redis'));
    redisUrl = redis.url;
  }
  // Extract files in an S3-compatible store every instance reads (decision 060).
  const objectStore = await startObjectStore(path.join(dir, 's3'));
  const ports: number[] = [];
  for (let index = 0; index < (options.instances ?? 2); index += 1) ports.push(await freePort());
  const fleet: Fleet = await startFleet({
    instancePorts: ports,
    listen: `127.0.0.1:${await freePort()}`,
    webDistDir: web.root,
    dir,
    readinessIntervalMs: 200,
    workerProcesses: 1,
    env: {
      PATH: process.env.PATH ?? '',
      ENVIRONMENT: 'local',
      LOG_LEVEL: 'info',
      DATABASE_URL: database.url,
      // The downloadable files are shared; each instance's data folder is its own, as on two machines.
      FILES_DIR: path.join(dir, 'data', 'files'),
      SECRET_KEY,
      FIRST_SUPERUSER: SUPERUSER,
      FIRST_SUPERUSER_PASSWORD: SUPERUSER_PASSWORD,
      FRONTEND_HOST: 'https://app.example.test',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      SMTP_TLS: 'false',
      RENEWAL_POLL_INTERVAL_SECONDS: '1',
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      ...objectStore.env,
      ...options.env,
    },
    instanceEnv: (name) => ({ DATA_DIR: path.join(dir, name, 'data') }),
  }).catch(async (error: unknown) => {
    // A fleet that did not start (no nginx, say) leaves no Redis or object store running behind it.
    await redis?.stop();
    await objectStore.stop();
    await smtp.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  const sql = new pg.Pool({ connectionString: database.url, max: 2 });
  return {
    fleet,
    database,
    smtp,
    redisUrl,
    web,
    dir,
    sql,
    async close() {
      // Idempotent: a case may have stopped the fleet already.
      await fleet.stop();
      await sql.end();
      await smtp.close();
      await redis?.stop();
      await objectStore.stop();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Logs in over HTTP at `base` (nginx or one instance) and answers the bearer header. */
export async function login(base: string, username: string, password: string): Promise<{ authorization: string }> {
  const response = await fetch(`${base}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }).toString(),
  });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  const { access_token: token } = (await response.json()) as { access_token: string };
  return { authorization: `Bearer ${token}` };
}

/** A JSON request at `base`; answers the status and the parsed body (undefined when empty). */
export async function call<T = unknown>(
  base: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

/**
 * One request on a connection of its own (`Connection: close`), as the rolling-restart load sends
 * them: see docs/decisions/051-graceful-shutdown-and-fleet.md on nginx reloads and kept-alive client
 * connections. Rejects on a network error or after `timeoutMs`.
 */
export function requestOnce(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: options.method ?? 'GET',
        agent: false,
        headers: {
          ...options.headers,
          connection: 'close',
          ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
        },
        timeout: options.timeoutMs ?? 30_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end(options.body);
  });
}
