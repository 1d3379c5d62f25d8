import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './stats.js';

/**
 * The embedded server as `npm start` runs it once the build is done: `npm run serve -w
 * apps/server` (node dist/server.js), PGlite in DATA_DIR, default logging. Timed from the spawn
 * to the first 200 on /readyz; its memory is the server process's VmRSS once it has idled.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface StartRun {
  folder: 'new' | 'existing';
  /** Spawn to the first 200 on /readyz. */
  readyMs: number;
  rssAtReadyBytes: number;
  /** After `idleSeconds` with no request. */
  idleRssBytes: number;
}

export interface EmbeddedRuns {
  idleSeconds: number;
  runs: StartRun[];
  /** Whether the bench built the server first (no build of its sources existed). */
  built: boolean;
  newReadyMs: number;
  existingReadyMs: number;
  idleRssBytes: number;
}

/** Builds contract and server unless built from these sources already (scripts/build.mjs; not timed). */
function ensureBuilt(): boolean {
  const result = spawnSync('node', ['scripts/build.mjs', 'server'], { cwd: ROOT, encoding: 'utf8' });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  if (result.status !== 0) throw new Error('node scripts/build.mjs server failed');
  return result.stdout.includes('building ');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The node process running dist/server.js under npm (npm → sh → node). */
function serverPid(root: number): number | undefined {
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    try {
      // The node process itself, not the shell npm runs it through (whose command line names it too):
      // by its program, the command line's first word. Not by /proc/…/comm: Node 24 names its main
      // thread "MainThread" there.
      const [program = '', ...args] = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (path.basename(program) === 'node' && args.includes('dist/server.js')) return pid;
    } catch {
      continue;
    }
    queue.push(...childrenOf(pid));
  }
  return undefined;
}

function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startOnce(dataDir: string, folder: StartRun['folder'], idleSeconds: number): Promise<StartRun> {
  const port = await freePort();
  const started = performance.now();
  const npm = spawn('npm', ['run', 'serve', '-w', 'apps/server'], {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      ENVIRONMENT: 'local',
      FIRST_SUPERUSER_PASSWORD: 'bench-embedded-superuser-password',
      DATABASE_URL: '',
    },
  });
  // Set by the exit handler; read by the polling loop below.
  const state: { exitCode: number | null } = { exitCode: null };
  const exited = new Promise<void>((resolve) =>
    npm.once('exit', (code) => {
      state.exitCode = code ?? -1;
      resolve();
    }),
  );
  try {
    let readyMs: number | undefined;
    while (readyMs === undefined) {
      if (state.exitCode !== null) {
        throw new Error(`the embedded server exited (${state.exitCode}) before it was ready`);
      }
      if (performance.now() - started > 120_000) throw new Error('the embedded server was not ready within 120 s');
      try {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`);
        if (response.status === 200) readyMs = performance.now() - started;
        await response.arrayBuffer();
      } catch {
        // Not listening yet.
      }
      if (readyMs === undefined) await sleep(10);
    }
    const pid = serverPid(npm.pid!);
    if (pid === undefined) throw new Error('could not find the server process under npm');
    const rssAtReadyBytes = rssBytes(pid);
    await sleep(idleSeconds * 1000);
    return { folder, readyMs, rssAtReadyBytes, idleRssBytes: rssBytes(pid) };
  } finally {
    try {
      process.kill(-npm.pid!, 'SIGTERM');
    } catch {
      // Gone already.
    }
    await exited;
  }
}

/**
 * `newRuns` starts on a new data folder each, then `existingRuns` on the last one. Medians of
 * each; the memory figure is the largest idle RSS of all runs.
 */
export async function measureEmbedded(options: {
  newRuns: number;
  existingRuns: number;
  idleSeconds: number;
  log: (line: string) => void;
}): Promise<EmbeddedRuns> {
  const built = ensureBuilt();
  const root = mkdtempSync(path.join(tmpdir(), 'dp-bench-embedded-'));
  try {
    const runs: StartRun[] = [];
    let dataDir = '';
    for (let i = 0; i < options.newRuns; i += 1) {
      dataDir = path.join(root, `data-${i}`);
      const run = await startOnce(dataDir, 'new', options.idleSeconds);
      options.log(`  new data folder: ready in ${(run.readyMs / 1000).toFixed(2)} s`);
      runs.push(run);
    }
    for (let i = 0; i < options.existingRuns; i += 1) {
      const run = await startOnce(dataDir, 'existing', options.idleSeconds);
      options.log(`  existing data folder: ready in ${(run.readyMs / 1000).toFixed(2)} s`);
      runs.push(run);
    }
    const ready = (folder: StartRun['folder']) =>
      median(runs.filter((run) => run.folder === folder).map((run) => run.readyMs));
    return {
      idleSeconds: options.idleSeconds,
      runs,
      built,
      newReadyMs: ready('new'),
      existingReadyMs: ready('existing'),
      idleRssBytes: Math.max(...runs.map((run) => run.idleRssBytes)),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
