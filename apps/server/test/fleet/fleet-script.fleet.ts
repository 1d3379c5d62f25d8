import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, REPO_ROOT } from '../../scripts/fleet/launcher.js';
import { waitUntil } from '../wait.js';
import { createDatabase, createWebDist, report, requestOnce, SECRET_KEY } from './fleet-harness.js';

/** True once nothing listens on the port any more. */
async function closed(port: number): Promise<boolean> {
  try {
    await requestOnce(`http://127.0.0.1:${port}/healthz`, { timeoutMs: 2_000 });
    return false;
  } catch {
    return true;
  }
}

describe('npm run fleet (deploy/fleet.sh)', () => {
  let database: Awaited<ReturnType<typeof createDatabase>>;
  let dir: string;

  beforeAll(async () => {
    database = await createDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'dp-fleet-script-'));
  });

  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts the instances, Redis and nginx, serves through nginx, and stops them all on Ctrl-C with exit 0', async () => {
    const web = createWebDist(dir);
    const port = await freePort();
    const started = Date.now();
    const child = spawn('bash', [path.join(REPO_ROOT, 'deploy/fleet.sh')], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? dir,
        DATABASE_URL: database.url,
        FLEET_PORT: String(port),
        FLEET_DIR: path.join(dir, 'fleet'),
        WEB_DIST_DIR: web.root,
        SECRET_KEY,
        FIRST_SUPERUSER: 'fleet-script@example.com',
        FIRST_SUPERUSER_PASSWORD: 'fleet-script-password-0123',
        SHUTDOWN_DRAIN_MS: '500',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => lines.push(...chunk.split('\n').filter((line) => line !== '')));
    }
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitUntil(() => lines.some((line) => line.startsWith('[fleet] open http://')), {
        timeoutMs: 90_000,
        intervalMs: 100,
        what: `the fleet to start:\n${lines.join('\n')}`,
      });
      const startMs = Date.now() - started;
      const instancePorts = /instances on ports ([\d, ]+);/
        .exec(lines.join('\n'))![1]!
        .split(',')
        .map((value) => Number(value.trim()));
      expect(instancePorts).toHaveLength(2);

      const ready = await requestOnce(`http://127.0.0.1:${port}/readyz?details=1`);
      expect(ready.status).toBe(200);
      // The extract files go to the fleet's own S3-compatible store on loopback.
      expect(lines.some((line) => line.startsWith('[fleet] started an S3-compatible store'))).toBe(true);
      expect(JSON.parse(ready.body)).toMatchObject({ studio_storage: { kind: 's3', status: 'ok' } });
      const page = await requestOnce(`http://127.0.0.1:${port}/`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(page.body).toContain('<title>Fleet</title>');
      const asset = await requestOnce(`http://127.0.0.1:${port}${web.assetPath}`);
      expect(asset.body).toBe(web.assetBody);

      const stopping = Date.now();
      child.kill('SIGINT');
      const code = await exit;
      const stopMs = Date.now() - stopping;
      report('fleet-script', {
        startMs,
        stopMs,
        exitCode: code,
        redis: lines.find((line) => line.includes('redis')) ?? null,
        lastLine: lines.at(-1),
      });
      expect(code).toBe(0);
      expect(lines.at(-1)).toBe('[fleet] stopped (instance exit codes: 0, 0)');
      for (const listening of [port, ...instancePorts]) expect(await closed(listening)).toBe(true);
    } finally {
      // A failed case still stops the fleet the way a person would, so that no instance outlives it.
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exit;
        clearTimeout(timer);
      }
    }
  });
});
