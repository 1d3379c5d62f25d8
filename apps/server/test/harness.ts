import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig, uniformRateLimits, type Config } from '../src/config.js';
import { createPglite, openPostgres, wrapPglite, type DatabaseHandle } from '../src/db/client.js';
import type { Clock } from '../src/lib/clock.js';
import { hashPassword } from '../src/lib/passwords.js';
import { insertUser, updateUser } from '../src/modules/users/users.repository.js';
import { startSmtpServer, type TestSmtpServer } from './smtp.js';

/** A clock tests move by hand. */
export function createTestClock(start = new Date('2026-01-15T10:00:00Z')) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
  } satisfies Clock & { advance(ms: number): void };
}

/** A fresh, migrated database of its own for one test file: a PGlite copy, or a server clone. */
export async function openTestDatabase(): Promise<DatabaseHandle & { drop(): Promise<void> }> {
  const template = inject('templateDatabase');
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl && template) {
    const name = `dp_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    // Cloning fails while another clone of the same template is in progress: retry briefly.
    for (let attempt = 0; ; attempt += 1) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        break;
      } catch (error) {
        if (attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 100));
      }
    }
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = openPostgres(url.toString(), { poolSize: 5 });
    return {
      ...database,
      async drop() {
        await database.close();
        // pool.end() resolves before every backend has gone; killing the stragglers (WITH FORCE)
        // makes their clients raise "terminating connection" as uncaught errors. Wait for them.
        for (let attempt = 0; ; attempt += 1) {
          try {
            await admin.query(`DROP DATABASE IF EXISTS ${name}${attempt >= 100 ? ' WITH (FORCE)' : ''}`);
            break;
          } catch (error) {
            const inUse = (error as { code?: string }).code === '55006';
            if (!inUse || attempt >= 100) throw error;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
        await admin.end();
      },
    };
  }
  const dump = readFileSync(inject('pgliteDumpPath'));
  const client = await createPglite({ loadDataDir: new Blob([dump]) });
  const database = wrapPglite(client);
  return { ...database, drop: () => database.close() };
}

/** Budgets big enough that only the rate-limit tests ever meet them. */
export const generousRateLimits = uniformRateLimits({ max: 10_000, windowMs: 60_000 });

export interface TestContext {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  smtp: TestSmtpServer;
  clock: ReturnType<typeof createTestClock>;
  close(): Promise<void>;
}

/**
 * The real app on a real database, sending mail over SMTP to a real server on loopback. Options
 * override config the way environment variables would.
 */
export async function createTestContext(
  options: {
    env?: Record<string, string>;
    config?: Partial<Config>;
    /** Studio settings over the tests' own (a data folder of the test's, a tiny time limit). */
    studio?: Partial<Config['studio']>;
    clock?: ReturnType<typeof createTestClock>;
    /** Adds routes of the test's own (a slow handler, say) before the app is ready. */
    extend?: (app: FastifyInstance) => void;
    /** Receives the app's log lines (set LOG_LEVEL in `env`: the default is silent). */
    logStream?: { write(line: string): void };
    /** Another app's database, shared as a fleet's instances share one (left to that app to drop). */
    sharedDatabase?: DatabaseHandle;
  } = {},
): Promise<TestContext> {
  const smtp = await startSmtpServer();
  const database = options.sharedDatabase ?? (await openTestDatabase());
  const clock = options.clock ?? createTestClock(new Date());
  const base = loadConfig({
    ENVIRONMENT: 'local',
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    LOG_LEVEL: 'silent',
    FRONTEND_HOST: 'https://app.example.test',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_TLS: 'false',
    WEB_DIST_DIR: '/nonexistent-web-dist',
    ...options.env,
  });
  const config: Config = {
    ...base,
    rateLimits: generousRateLimits,
    outbox: { ...base.outbox, pollIntervalMs: 50, maxAttempts: 5, retryBaseMs: 20 },
    // A small demo data set, built once in a folder every test shares (the file name says its size).
    studio: {
      ...base.studio,
      dir: path.join(tmpdir(), 'dataplatform-test-studio'),
      demoRows: 5_000,
      ...options.studio,
    },
    ...options.config,
  };
  const app = await buildApp(config, {
    database,
    clock,
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  options.extend?.(app);
  await app.ready();
  return {
    app,
    database,
    config,
    smtp,
    clock,
    async close() {
      await app.close();
      if (!options.sharedDatabase) await (database as Awaited<ReturnType<typeof openTestDatabase>>).drop();
      await smtp.close();
    },
  };
}

/**
 * The set-up most test files share: one app for the file (or the `describe` it is called in), with
 * a superuser in it, closed after the last test. The two objects are filled in by `beforeAll`, so
 * read them inside tests and hooks, never at collection time.
 */
export function useTestContext(options: Parameters<typeof createTestContext>[0] = {}): {
  ctx: TestContext;
  admin: TestUser;
} {
  const ctx = {} as TestContext;
  const admin = {} as TestUser;
  beforeAll(async () => {
    Object.assign(ctx, await createTestContext(options));
    Object.assign(admin, await createUser(ctx, { isSuperuser: true }));
  });
  afterAll(() => ctx.close());
  return { ctx, admin };
}

let userCounter = 0;

export interface TestUser {
  id: string;
  email: string;
  password: string;
  token: string;
  headers: { authorization: string };
}

/** Inserts a user straight into the database and logs it in over HTTP. */
export async function createUser(
  ctx: TestContext,
  options: {
    email?: string;
    password?: string;
    isSuperuser?: boolean;
    isActive?: boolean;
    fullName?: string;
    /** False: an account that has not followed its verification link yet (decision 029). */
    verified?: boolean;
  } = {},
): Promise<TestUser> {
  userCounter += 1;
  const email = options.email ?? `user${userCounter}-${randomBytes(3).toString('hex')}@example.com`;
  const password = options.password ?? `password-${userCounter}-ok`;
  const row = await insertUser(ctx.database.db, {
    email,
    hashedPassword: await hashPassword(password),
    fullName: options.fullName ?? `Test User ${userCounter}`,
    isSuperuser: options.isSuperuser ?? false,
    isActive: true,
    emailVerifiedAt: options.verified === false ? null : new Date(),
  });
  const token = await login(ctx, email, password);
  if (options.isActive === false) await updateUser(ctx.database.db, row.id, { isActive: false });
  return { id: row.id, email, password, token, headers: { authorization: `Bearer ${token}` } };
}

export async function login(ctx: TestContext, username: string, password: string): Promise<string> {
  const response = await loginRequest(ctx, username, password);
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return response.json<{ access_token: string }>().access_token;
}

export function loginRequest(ctx: TestContext, username: string, password: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/login/access-token',
    payload: new URLSearchParams({ username, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The text a client shows for a failure: first detail message of an array, else the string. */
export function detailOf(response: LightMyRequestResponse): string {
  const body = response.json<{ detail: unknown }>();
  if (Array.isArray(body.detail)) return (body.detail[0] as { msg: string }).msg;
  return String(body.detail);
}
