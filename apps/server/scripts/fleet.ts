/**
 * `npm run fleet` (through deploy/fleet.sh): a trial of several instances on this machine, on
 * PostgreSQL, with Redis and nginx in front, until Ctrl-C stops them all. SIGHUP restarts the
 * instances one at a time, as a deployment would. README "Running several instances" lists the
 * settings; docs/decisions/051-graceful-shutdown-and-fleet.md says why it works the way it does.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  findExecutable,
  freePort,
  redisAnswers,
  REPO_ROOT,
  startFleet,
  startObjectStore,
  startRedis,
  type Fleet,
} from './fleet/launcher.js';

const env = process.env;
/** The database the fleet makes on the local PostgreSQL server when DATABASE_URL is unset. */
const FLEET_DATABASE = 'dataplatform_fleet';
const LIFECYCLE = /serving on|shutting down|draining|closing|shut down|first superuser|timed out/;

function say(line: string): void {
  process.stdout.write(`[fleet] ${line}\n`);
}

function positiveInteger(name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
}

/** Instance logs are JSON: show warnings, errors and lifecycle lines; all of it is in the log files. */
function show(source: string, line: string): void {
  if (line.trim() === '') return;
  if (source === 'fleet') return say(line);
  if (source === 'nginx') {
    if (/\[(warn|error|crit|alert|emerg)\]/.test(line)) process.stdout.write(`[nginx] ${line}\n`);
    return;
  }
  let entry: { level?: number; msg?: string } | undefined;
  try {
    entry = JSON.parse(line) as { level?: number; msg?: string };
  } catch {
    // Not JSON: the generated first-superuser password, or a crash. Either way, show it.
    process.stdout.write(`[${source}] ${line}\n`);
    return;
  }
  if ((entry.level ?? 0) >= 40 || LIFECYCLE.test(entry.msg ?? '')) {
    process.stdout.write(`[${source}] ${entry.msg ?? line}\n`);
  }
}

/** DATABASE_URL, or a database of the fleet's own on the local server (FLEET_ADMIN_DATABASE_URL). */
async function resolveDatabase(): Promise<string> {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  const adminUrl = env.FLEET_ADMIN_DATABASE_URL ?? 'postgresql://dp_test:dp_test@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [FLEET_DATABASE]);
    if (found.rowCount === 0) {
      await admin.query(`CREATE DATABASE ${FLEET_DATABASE}`);
      say(`created the database ${FLEET_DATABASE}`);
    }
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${FLEET_DATABASE}`;
  return url.toString();
}

/** REDIS_URL; else a redis-server of the fleet's own; else one already running on 6379; else none. */
async function resolveRedis(dir: string): Promise<{ url: string | undefined; stop(): Promise<void> }> {
  const none = async () => undefined;
  if (env.REDIS_URL) return { url: env.REDIS_URL, stop: none };
  if (findExecutable('redis-server')) {
    const redis = await startRedis(path.join(dir, 'redis'));
    say(`started redis-server at ${redis.url}`);
    return redis;
  }
  if (await redisAnswers('127.0.0.1', 6379)) {
    say('using the Redis server on 127.0.0.1:6379');
    return { url: 'redis://127.0.0.1:6379', stop: none };
  }
  say('no Redis (REDIS_URL unset, no redis-server): each instance counts its rate limits on its own');
  return { url: undefined, stop: none };
}

/** STUDIO_STORAGE_URL as given, or an S3-compatible server of the fleet's own (s3rver) on loopback. */
async function resolveObjectStore(dir: string): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  if (env.STUDIO_STORAGE_URL) return { env: {}, stop: async () => undefined };
  const store = await startObjectStore(path.join(dir, 's3'));
  say(`started an S3-compatible store (s3rver) at ${store.env.STUDIO_S3_ENDPOINT} for the extract files`);
  return store;
}

async function main(): Promise<void> {
  const count = positiveInteger('FLEET_INSTANCES', 2);
  const listenHost = env.FLEET_HOST || '127.0.0.1';
  const listenPort = positiveInteger('FLEET_PORT', 8080);
  const basePort = env.FLEET_INSTANCE_BASE_PORT ? positiveInteger('FLEET_INSTANCE_BASE_PORT', 8100) : undefined;
  const ports: number[] = [];
  for (let index = 1; index <= count; index += 1) ports.push(basePort ? basePort + index : await freePort());
  const dir = env.FLEET_DIR ? path.resolve(env.FLEET_DIR) : mkdtempSync(path.join(os.tmpdir(), 'dp-fleet-'));
  const webDistDir = path.resolve(env.WEB_DIST_DIR || path.join(REPO_ROOT, 'apps/web/dist'));
  const publicUrl = `http://${listenHost === '0.0.0.0' ? 'localhost' : listenHost}:${listenPort}`;

  const databaseUrl = await resolveDatabase();
  const redis = await resolveRedis(dir);
  const objectStore = await resolveObjectStore(dir);
  let secretKey = env.SECRET_KEY;
  if (!secretKey) {
    secretKey = randomBytes(32).toString('base64url');
    say('SECRET_KEY generated for this run: sessions end with it (set SECRET_KEY to keep them)');
  }
  const instanceEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) instanceEnv[key] = value;
  Object.assign(instanceEnv, {
    DATABASE_URL: databaseUrl,
    SECRET_KEY: secretKey,
    FRONTEND_HOST: env.FRONTEND_HOST || publicUrl,
    // The drain is what lets the watcher take an instance out of nginx's rotation before it closes;
    // a local run has none by default.
    SHUTDOWN_DRAIN_MS: env.SHUTDOWN_DRAIN_MS || '5000',
    // Each instance has a data folder of its own, as on a machine of its own; the downloadable files
    // (FILES_DIR) stay shared, from the data folder the instances would have used.
    FILES_DIR:
      env.FILES_DIR || path.join(env.DATA_DIR ? path.resolve(env.DATA_DIR) : path.join(REPO_ROOT, 'data'), 'files'),
    ...(redis.url ? { REDIS_URL: redis.url } : {}),
    ...objectStore.env,
  });

  let fleet: Fleet;
  try {
    fleet = await startFleet({
      instancePorts: ports,
      listen: `${listenHost}:${listenPort}`,
      webDistDir,
      env: instanceEnv,
      instanceEnv: (name) => ({ DATA_DIR: path.join(dir, name, 'data') }),
      dir,
      supervise: true,
      detached: true,
      onLine: show,
    });
  } catch (error) {
    await redis.stop();
    await objectStore.stop();
    throw error;
  }
  // Whatever ends this process, no instance or nginx is left behind.
  process.on('exit', () => {
    for (const pid of [...fleet.instances.map((instance) => instance.pid), fleet.nginx.pid]) {
      if (pid === undefined) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  });

  say(`${count} instances on ports ${ports.join(', ')}; logs and nginx.conf in ${dir}`);
  say(`open ${publicUrl} (Ctrl-C stops everything; kill -HUP ${process.pid} restarts the instances one by one)`);

  let busy = false;
  let stopping = false;
  process.on('SIGHUP', () => {
    if (busy || stopping) return;
    busy = true;
    void (async () => {
      for (let index = 0; index < fleet.instances.length && !stopping; index += 1) {
        const figures = await fleet.restart(index);
        say(`restarted ${JSON.stringify(figures)}`);
      }
    })()
      .catch((error: unknown) => say(`rolling restart failed: ${String(error)}`))
      .finally(() => (busy = false));
  });
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping the instances (they drain first), nginx, Redis and the object store`);
    void (async () => {
      const exits = await fleet.stop();
      await redis.stop();
      await objectStore.stop();
      say(`stopped (instance exit codes: ${exits.map((exit) => exit.code ?? exit.signal).join(', ')})`);
      process.exit(exits.every((exit) => exit.code === 0) ? 0 : 1);
    })();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`[fleet] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
