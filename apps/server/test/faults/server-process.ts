import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';
import { closedPort } from '../tenant-databases.js';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

export const SUPERUSER = 'fault-admin@example.com';
export const SUPERUSER_PASSWORD = 'fault-admin-password-0123';

/** The PostgreSQL server the suite runs against (TEST_DATABASE_URL; the fault config defaults it). */
export function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('the fault suite needs TEST_DATABASE_URL (a PostgreSQL server)');
  return url;
}

export function databaseUrl(name: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh migrated database cloned from the run's template, and a way to drop it. */
export async function createFaultDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `dp_fault_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
        break;
      } catch (error) {
        if (attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 100));
      }
    }
  } finally {
    await admin.end();
  }
  return {
    name,
    url: databaseUrl(name),
    async drop() {
      const dropper = new pg.Client({ connectionString: serverUrl() });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/**
 * Ends every connection other sessions hold to `database` (pg_terminate_backend). The role that owns
 * the test databases may signal its own backends, so no superuser is needed.
 */
export async function terminateBackends(database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    const result = await admin.query<{ pid: number }>(
      `WITH mine AS MATERIALIZED (
         SELECT pid FROM pg_stat_activity
         WHERE datname = $1 AND usename = current_user AND pid <> pg_backend_pid()
       ) SELECT pid FROM mine WHERE pg_terminate_backend(pid)`,
      [database],
    );
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  /** Every line the process wrote to stdout and stderr so far. */
  lines: string[];
  /** Set once the process has exited (it must not, in these tests). */
  exit: { code: number | null; signal: string | null } | undefined;
  superuserToken(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The real server process (`src/server.ts` through tsx), so a crash is a process exit the test sees.
 * Resolves once it logs that it is serving.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await closedPort();
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/server.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      ENVIRONMENT: 'local',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      SECRET_KEY: 'fault-suite-secret-key-that-is-long-enough-0123456789',
      FIRST_SUPERUSER: SUPERUSER,
      FIRST_SUPERUSER_PASSWORD: SUPERUSER_PASSWORD,
      FRONTEND_HOST: 'https://app.example.test',
      WEB_DIST_DIR: '/nonexistent-web-dist',
      RENEWAL_POLL_INTERVAL_SECONDS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const process_: ServerProcess = {
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    lines,
    exit: undefined,
    async superuserToken() {
      const response = await fetch(`${process_.baseUrl}/api/v1/login/access-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: SUPERUSER, password: SUPERUSER_PASSWORD }).toString(),
      });
      if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { access_token: string }).access_token;
    },
    async stop() {
      if (process_.exit) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
  const ready = new Promise<void>((resolve, reject) => {
    const collect = (stream: NodeJS.ReadableStream) => {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop() ?? '';
        for (const line of parts) {
          lines.push(line);
          if (line.includes('serving on http://')) resolve();
        }
      });
    };
    collect(child.stdout);
    collect(child.stderr);
    child.once('exit', (code, signal) => {
      process_.exit = { code, signal };
      reject(new Error(`server exited before serving (${code ?? signal}):\n${lines.slice(-20).join('\n')}`));
    });
  });
  // The start is an event (the "serving on" line); this bound only turns a hang into a clear failure.
  const startTimer = setTimeout(() => child.kill('SIGKILL'), 45_000);
  try {
    await ready;
  } finally {
    clearTimeout(startTimer);
  }
  return process_;
}

/** The log lines (pino JSON) whose message matches. */
export function logLines(server: ServerProcess, pattern: RegExp): string[] {
  return server.lines.filter((line) => pattern.test(line));
}
