import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, REPO_ROOT, startFleet, type Fleet } from '@dataplatform/server/scripts/fleet/launcher.js';
import { BENCH_SECRET_KEY } from './app-config.js';
import { createBenchDatabase, createBenchUser } from './fixture.js';
import { fire } from './load.js';
import { loadSettings } from './settings.js';

/**
 * `npm run bench:fleet`: `GET /users/me` from one built instance asked directly, then from two
 * instances behind nginx (deploy/nginx, started by the fleet launcher), on one fresh PostgreSQL
 * database, reported as a ratio. On a 2-core machine nginx and the two instances share the cores
 * with the load generator, so the ratio is the price of the proxy hop there, not a scaling figure.
 */

const out = (text = '') => process.stdout.write(`${text}\n`);

interface Window {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

async function usersMe(baseUrl: string, token: string, seconds: number, connections: number): Promise<Window> {
  const result = await fire(
    {
      url: `${baseUrl}/api/v1/users/me`,
      method: 'GET',
      headers: { authorization: `Bearer ${token}` },
      connections,
    },
    seconds,
  );
  return {
    requestsPerSecond: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Warm-up, then the measured window; any answer but a 2xx fails the run. */
async function measureUsersMe(label: string, baseUrl: string, token: string): Promise<Window> {
  const settings = loadSettings();
  await usersMe(baseUrl, token, settings.warmupSeconds, settings.connections);
  const window = await usersMe(baseUrl, token, settings.durationSeconds, settings.connections);
  if (window.non2xx > 0 || window.errors > 0) {
    throw new Error(`${label}: ${window.non2xx} non-2xx answers and ${window.errors} errors`);
  }
  return window;
}

async function withFleet<T>(
  instanceCount: number,
  env: Record<string, string>,
  dir: string,
  run: (fleet: Fleet) => Promise<T>,
): Promise<T> {
  const fleet = await startFleet({
    instancePorts: await Promise.all(Array.from({ length: instanceCount }, () => freePort())),
    listen: `127.0.0.1:${await freePort()}`,
    webDistDir: path.join(REPO_ROOT, 'apps/web/dist'),
    env,
    dir,
    // An instance that fails to start says why on its own output.
    onLine: (source, line) => {
      if (/"level":(50|60)/.test(line)) out(`  [${source}] ${line}`);
    },
  });
  try {
    return await run(fleet);
  } finally {
    await fleet.stop();
  }
}

async function main(): Promise<void> {
  const settings = loadSettings();
  const database = await createBenchDatabase(settings.databaseUrl, '_fleet');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dp-bench-fleet-'));
  try {
    const user = await createBenchUser(database.url);
    // The instances get this environment and nothing else of the runner's.
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dir,
      ENVIRONMENT: 'local',
      DATABASE_URL: database.url,
      SECRET_KEY: BENCH_SECRET_KEY,
      // As in production: a log line per request (and the launcher waits for the "serving on" line).
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_MS: '0',
    };

    // One instance asked directly: the fleet's first instance, bypassing nginx.
    const direct = await withFleet(1, env, path.join(dir, 'one'), (fleet) =>
      measureUsersMe('1 instance, direct', fleet.instances[0]!.url, user.token),
    );
    const proxied = await withFleet(2, env, path.join(dir, 'two'), (fleet) =>
      measureUsersMe('2 instances behind nginx', fleet.url, user.token),
    );

    const ratio = proxied.requestsPerSecond / direct.requestsPerSecond;
    out(
      `users/me, ${settings.connections} connections, ${settings.durationSeconds} s windows, ${os.cpus().length} cores`,
    );
    for (const [label, window] of [
      ['1 instance, direct', direct],
      ['2 instances behind nginx', proxied],
    ] as const) {
      out(
        `  ${label.padEnd(26)} ${window.requestsPerSecond.toFixed(0).padStart(7)} req/s  ` +
          `p50 ${window.p50Ms} ms  p99 ${window.p99Ms} ms`,
      );
    }
    out(`  ratio (nginx + 2 / direct 1): ${ratio.toFixed(2)} (a report: the cost of the hop on this machine)`);

    const resultsDir = path.join(REPO_ROOT, 'bench/results');
    mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `fleet-${new Date().toISOString().replaceAll(':', '-')}.json`);
    writeFileSync(file, `${JSON.stringify({ direct, proxied, ratio, cores: os.cpus().length }, null, 2)}\n`);
    out(`  written to ${path.relative(REPO_ROOT, file)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
}

await main();
