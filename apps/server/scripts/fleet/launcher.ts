/**
 * Runs a fleet on one machine: N instances of the built server, nginx in front of them (the template
 * in deploy/nginx/), optionally Redis, and a readiness watcher that takes an instance out of nginx's
 * rotation while its /readyz does not answer 200. `npm run fleet` (scripts/fleet.ts) and the fleet
 * tests (test/fleet/) both start fleets with it. See docs/decisions/051-graceful-shutdown-and-fleet.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { accessSync, appendFileSync, constants, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import S3rver from 's3rver';
import { SERVER_NODE_FLAGS } from '../../src/node-flags.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const NGINX_TEMPLATE = path.join(REPO_ROOT, 'deploy/nginx/nginx.conf.template');
/** The built server (`npm run build`): what production runs, and what starts fastest. */
export const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/server/dist/server.js');

/** An executable on PATH, or in the sbin folders a non-root PATH often lacks (Debian's nginx). */
export function findExecutable(name: string): string | undefined {
  const folders = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  for (const folder of folders) {
    if (folder === '') continue;
    const candidate = path.join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Calls `onLine` with each line a child writes to stdout or stderr. */
function readLines(child: ChildProcess, onLine: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      for (const line of parts) onLine(line);
    });
  }
}

/** Resolves with the first line (already seen or still to come) that `predicate` accepts. */
function lineWatcher() {
  const waiters: { predicate: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  return {
    push(line: string) {
      for (const waiter of [...waiters]) {
        if (waiter.predicate(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    },
    next(predicate: (line: string) => boolean): Promise<string> {
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
  };
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Rejects with `message` unless `promise` settles within `ms`. */
async function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------------
// nginx

export interface Upstream {
  host: string;
  port: number;
  /** Out of rotation (`down`): nginx sends it nothing. */
  down?: boolean;
}

export interface NginxConfigOptions {
  /** `host:port` clients connect to. */
  listen: string;
  /** The built web app; /assets/ is served from here. */
  staticRoot: string;
  upstreams: Upstream[];
  workerProcesses?: number | 'auto';
  /** Passive health checks: failures that take an instance out for `failTimeoutSeconds`. */
  maxFails?: number;
  failTimeoutSeconds?: number;
}

/** The template with its fields filled in. */
export function renderNginxConfig(options: NginxConfigOptions): string {
  const maxFails = options.maxFails ?? 3;
  const failTimeout = options.failTimeoutSeconds ?? 10;
  const servers = options.upstreams
    .map(
      (upstream) =>
        `        server ${upstream.host}:${upstream.port} max_fails=${maxFails} fail_timeout=${failTimeout}s${upstream.down ? ' down' : ''};`,
    )
    .join('\n');
  const fields: Record<string, string> = {
    // Run as root, nginx would hand its workers to `nobody`, who may not read the files it serves nor
    // write its own temporary folder: they stay root for a trial on one machine.
    USER: process.getuid?.() === 0 ? 'user root;' : '',
    WORKER_PROCESSES: String(options.workerProcesses ?? 'auto'),
    LISTEN: options.listen,
    STATIC_ROOT: path.resolve(options.staticRoot),
    UPSTREAM_SERVERS: servers,
    UPSTREAM_TRIES: String(Math.max(1, options.upstreams.length)),
  };
  // The header comment names the fields too: only lines outside comments are filled in.
  return readFileSync(NGINX_TEMPLATE, 'utf8')
    .split('\n')
    .map((line) =>
      line.trimStart().startsWith('#')
        ? line
        : line.replace(/\{\{([A-Z_]+)\}\}/g, (match, name: string) => fields[name] ?? match),
    )
    .join('\n');
}

export interface NginxProcess {
  pid: number;
  /** Every line nginx wrote (its error log goes to stderr). */
  lines: string[];
  /** Reloads applied so far. */
  reloads: number;
  /**
   * Writes the new configuration and reloads; resolves once new workers run it and every old worker
   * has stopped accepting connections (old workers still finish the requests they hold).
   */
  reload(config: string): Promise<void>;
  /** Graceful stop (SIGQUIT): requests in progress finish. */
  stop(): Promise<void>;
}

/**
 * nginx in the foreground with `dir` as its prefix: configuration, pid file, access log and
 * temporary files all under `dir`. Resolves once its workers run.
 */
export async function startNginx(
  dir: string,
  config: string,
  onLine: (line: string) => void = () => undefined,
): Promise<NginxProcess> {
  const binary = findExecutable('nginx');
  if (!binary) throw new Error('nginx is not installed (Debian: apt-get install nginx-light)');
  mkdirSync(path.join(dir, 'temp'), { recursive: true });
  const configFile = path.join(dir, 'nginx.conf');
  writeFileSync(configFile, config);
  const prefix = dir.endsWith(path.sep) ? dir : `${dir}${path.sep}`;
  const child = spawn(binary, ['-p', prefix, '-c', configFile, '-e', 'stderr'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const watcher = lineWatcher();
  /** The workers of the configuration in force, from nginx's own notices. */
  let workers = new Set<string>();
  let starting = new Set<string>();
  readLines(child, (line) => {
    lines.push(line);
    const worker = /start worker process (\d+)$/.exec(line);
    if (worker) starting.add(worker[1]!);
    watcher.push(line);
    onLine(line);
  });
  const started = (line: string) => line.endsWith('start worker processes') || /\[emerg\]/.test(line);
  /** Resolves once nginx has logged each of `pids` closing its listening sockets. */
  const stoppedAccepting = (pids: Set<string>) =>
    Promise.all(
      [...pids].map((pid) =>
        watcher.next((line) => line.includes(` ${pid}#`) && line.endsWith('gracefully shutting down')),
      ),
    );
  const first = await within(
    Promise.race([watcher.next(started), exited(child).then(({ code }) => `[emerg] nginx exited with ${code}`)]),
    15_000,
    'nginx did not start',
  );
  if (first.includes('[emerg]')) {
    child.kill('SIGKILL');
    throw new Error(`nginx failed to start:\n${lines.join('\n')}`);
  }
  // The worker lines follow the "start worker processes" one at once; the first request waits anyway.
  const settleWorkers = () => {
    workers = starting;
    starting = new Set();
  };
  const nginx: NginxProcess = {
    pid: child.pid!,
    lines,
    reloads: 0,
    async reload(next: string) {
      writeFileSync(configFile, next);
      settleWorkers();
      const old = workers;
      const applied = watcher.next(started);
      // Old workers keep accepting until they take the signal nginx sends them after starting the
      // new ones: the new configuration is in force only once each has said it is shutting down.
      const oldStopped = stoppedAccepting(old);
      child.kill('SIGHUP');
      const line = await within(applied, 15_000, 'nginx did not reload');
      // A configuration nginx refuses leaves the old one running: say so rather than pretend.
      if (line.includes('[emerg]')) {
        starting = old;
        throw new Error(`nginx refused the configuration: ${line}`);
      }
      await within(oldStopped, 15_000, 'the old nginx workers did not stop accepting');
      nginx.reloads += 1;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const done = exited(child);
      child.kill('SIGQUIT');
      try {
        await within(done, 15_000, 'nginx did not stop');
      } catch {
        child.kill('SIGKILL');
        await done;
      }
    },
  };
  return nginx;
}

// ---------------------------------------------------------------------------------------------------
// Redis

export interface RedisProcess {
  url: string;
  stop(): Promise<void>;
}

/** A throwaway redis-server on a free loopback port: nothing saved, nothing left behind. */
export async function startRedis(dir: string, onLine: (line: string) => void = () => undefined): Promise<RedisProcess> {
  const binary = findExecutable('redis-server');
  if (!binary) throw new Error('redis-server is not installed (Debian: apt-get install redis-server)');
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const watcher = lineWatcher();
  const lines: string[] = [];
  readLines(child, (line) => {
    lines.push(line);
    watcher.push(line);
    onLine(line);
  });
  const ready = await within(
    Promise.race([
      watcher.next((line) => line.includes('Ready to accept connections')).then(() => true),
      exited(child).then(() => false),
    ]),
    15_000,
    'redis-server did not start',
  );
  if (!ready) throw new Error(`redis-server failed to start:\n${lines.join('\n')}`);
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const done = exited(child);
      child.kill('SIGTERM');
      await done;
    },
  };
}

/** Whether a Redis server answers PING at host:port. */
export async function redisAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const finish = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => finish(data.toString().startsWith('+PONG')));
  });
}

// ---------------------------------------------------------------------------------------------------
// Instances

export interface ObjectStoreProcess {
  /** The settings every instance needs to keep its extracts there (decision 060). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * An S3-compatible object store on loopback for the instances' extract files: s3rver (from npm; no
 * MinIO server is within this project's reach), objects in `dir`, one bucket, its built-in key. A
 * deployment points STUDIO_STORAGE_URL at a real store (AWS S3, MinIO, R2, …) instead.
 */
export async function startObjectStore(dir: string): Promise<ObjectStoreProcess> {
  mkdirSync(dir, { recursive: true });
  const bucket = 'fleet-extracts';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
    env: {
      STUDIO_STORAGE_URL: `s3://${bucket}/extracts`,
      STUDIO_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      STUDIO_S3_FORCE_PATH_STYLE: 'true',
      STUDIO_S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async stop() {
      // close() alone would wait for the instances' kept-alive connections.
      const http = (server as unknown as { httpServer: Server }).httpServer;
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
    },
  };
}

export interface ExitFigures {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** From the signal to the exit. */
  ms: number;
}

export interface Instance {
  readonly name: string;
  readonly port: number;
  /** http://127.0.0.1:port, bypassing nginx. */
  readonly url: string;
  /** The current process, while one runs. */
  readonly pid: number | undefined;
  /** Every line every process of this instance wrote, restarts included. */
  readonly lines: string[];
  /** Every exit so far, in order. */
  readonly exits: ExitFigures[];
  /** Starts the process; resolves once it serves (its "serving on" line). */
  start(): Promise<void>;
  /** Sends the signal (SIGTERM: a graceful shutdown) and resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<ExitFigures>;
}

interface InstanceOptions {
  name: string;
  port: number;
  entry: string;
  env: Record<string, string>;
  /** In a process group of its own, so a terminal's Ctrl-C reaches only the launcher. */
  detached: boolean;
  onLine: (line: string) => void;
  /** Called when the process exits without stop() having asked it to. */
  onUnexpectedExit: (figures: ExitFigures) => void;
}

function createInstance(options: InstanceOptions): Instance {
  let child: ChildProcess | undefined;
  let stopping = false;
  const lines: string[] = [];
  const exits: ExitFigures[] = [];
  const url = `http://127.0.0.1:${options.port}`;

  return {
    name: options.name,
    port: options.port,
    url,
    get pid() {
      return child?.pid;
    },
    lines,
    exits,
    async start() {
      if (child) throw new Error(`${options.name} is already running`);
      stopping = false;
      const process_ = spawn(process.execPath, [...SERVER_NODE_FLAGS, options.entry], {
        cwd: REPO_ROOT,
        env: { ...options.env, HOST: '127.0.0.1', PORT: String(options.port) },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: options.detached,
      });
      child = process_;
      const watcher = lineWatcher();
      readLines(process_, (line) => {
        lines.push(line);
        watcher.push(line);
        options.onLine(line);
      });
      const startedAt = Date.now();
      process_.once('exit', (code, signal) => {
        if (child === process_) child = undefined;
        if (!stopping) {
          const figures = { code, signal, ms: Date.now() - startedAt };
          exits.push(figures);
          options.onUnexpectedExit(figures);
        }
      });
      const serving = await within(
        Promise.race([
          watcher.next((line) => line.includes('serving on http://')).then(() => true),
          exited(process_).then(() => false),
        ]),
        60_000,
        `${options.name} did not start within 60 s`,
      );
      if (!serving) throw new Error(`${options.name} exited while starting:\n${lines.slice(-20).join('\n')}`);
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      const process_ = child;
      if (!process_) throw new Error(`${options.name} is not running`);
      stopping = true;
      const started = Date.now();
      const done = exited(process_);
      process_.kill(signal);
      const { code, signal: exitSignal } = await done;
      const figures = { code, signal: exitSignal, ms: Date.now() - started };
      exits.push(figures);
      return figures;
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The fleet

export interface FleetOptions {
  /** One instance per port. */
  instancePorts: number[];
  /** Where nginx listens (`host:port`). */
  listen: string;
  /** The built web app: nginx serves /assets/ from it, the instances serve the rest of it. */
  webDistDir: string;
  /** Environment of every instance: DATABASE_URL, SECRET_KEY, REDIS_URL, SMTP_*, ... */
  env: Record<string, string>;
  /** What differs per instance (`app-1`, …), over `env`: a data folder of its own, as on its own machine. */
  instanceEnv?: (name: string) => Record<string, string>;
  /** Rendered configuration, logs and temporary files. */
  dir: string;
  entry?: string;
  /** How often each instance's /readyz is asked. */
  readinessIntervalMs?: number;
  /** Start an instance again when it exits on its own (the CLI); tests restart by hand. */
  supervise?: boolean;
  detached?: boolean;
  workerProcesses?: number | 'auto';
  /** Every line an instance (`app-1`, ...) or nginx (`nginx`) writes, and the fleet's own (`fleet`). */
  onLine?: (source: string, line: string) => void;
}

export interface RestartFigures {
  instance: string;
  exitCode: number | null;
  /** From SIGTERM until nginx stopped sending it requests (its /readyz said 503). */
  outOfRotationMs: number;
  /** From SIGTERM until the process exited: the drain, then requests in flight and workers. */
  exitMs: number;
  /** From the new process's start until it served. */
  startMs: number;
  /** From SIGTERM until nginx sent it requests again. */
  totalMs: number;
}

export interface Fleet {
  /** nginx's address: http://host:port. */
  url: string;
  instances: Instance[];
  nginx: NginxProcess;
  /** Whether nginx currently sends each instance requests, by name. */
  inRotation(): Record<string, boolean>;
  /**
   * Restarts one instance the way a deployment does: SIGTERM, wait for it to exit, start it again,
   * wait until nginx sends it requests again.
   */
  restart(index: number): Promise<RestartFigures>;
  /** Stops the instances (gracefully, all at once), the watcher and nginx. */
  stop(): Promise<ExitFigures[]>;
}

async function isReady(instance: Instance): Promise<boolean> {
  if (instance.pid === undefined) return false;
  try {
    const response = await fetch(`${instance.url}/readyz`, { signal: AbortSignal.timeout(1_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/**
 * Starts the instances, waits until each is ready, then nginx in front of them and the watcher:
 * every `readinessIntervalMs` it asks each instance's /readyz and, when the set of ready instances
 * changes, reloads nginx with the others marked `down`. nginx (open source) cannot ask /readyz
 * itself; this is the part of the load balancer that notices a drain.
 */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const log = (line: string) => options.onLine?.('fleet', line);
  const readinessIntervalMs = options.readinessIntervalMs ?? 250;
  mkdirSync(options.dir, { recursive: true });
  let stopping = false;

  const instances: Instance[] = options.instancePorts.map((port, index) => {
    const name = `app-${index + 1}`;
    const logFile = path.join(options.dir, `${name}.log`);
    const instance = createInstance({
      name,
      port,
      entry: options.entry ?? SERVER_ENTRY,
      env: {
        ...options.env,
        ...options.instanceEnv?.(name),
        WEB_DIST_DIR: path.resolve(options.webDistDir),
        TRUST_PROXY: 'true',
      },
      detached: options.detached ?? false,
      onLine: (line) => {
        appendFileSync(logFile, `${line}\n`);
        options.onLine?.(name, line);
      },
      onUnexpectedExit: (figures) => {
        if (stopping) return;
        log(`${name} exited on its own (code ${figures.code}, signal ${figures.signal})`);
        if (!options.supervise) return;
        void delay(1_000).then(async () => {
          if (stopping || instance.pid !== undefined) return;
          log(`${name} starting again`);
          await instance.start().catch((error: unknown) => log(`${name} did not start: ${String(error)}`));
        });
      },
    });
    return instance;
  });

  const stopStarted = () => Promise.all(instances.filter((i) => i.pid !== undefined).map((i) => i.stop('SIGKILL')));
  const startAll = await Promise.allSettled(instances.map((instance) => instance.start()));
  const failed = startAll.find((result) => result.status === 'rejected');
  if (failed) {
    await stopStarted();
    throw failed.reason;
  }
  for (const instance of instances) {
    const deadline = Date.now() + 30_000;
    while (!(await isReady(instance))) {
      if (Date.now() > deadline) {
        await stopStarted();
        throw new Error(`${instance.name} never became ready`);
      }
      await delay(100);
    }
  }

  let applied = instances.map(() => true);
  const render = (rotation: boolean[]) =>
    renderNginxConfig({
      listen: options.listen,
      staticRoot: options.webDistDir,
      workerProcesses: options.workerProcesses ?? 'auto',
      upstreams: instances.map((instance, index) => ({
        host: '127.0.0.1',
        port: instance.port,
        down: !rotation[index],
      })),
    });
  let nginx: NginxProcess;
  try {
    nginx = await startNginx(options.dir, render(applied), (line) => options.onLine?.('nginx', line));
  } catch (error) {
    await Promise.all(instances.map((instance) => instance.stop('SIGTERM')));
    throw error;
  }
  log(`nginx serves http://${options.listen} in front of ${instances.map((i) => i.url).join(', ')}`);

  const rotationChanges: { at: number; rotation: boolean[] }[] = [];
  const listeners: (() => void)[] = [];
  async function watch(): Promise<void> {
    while (!stopping) {
      const ready = await Promise.all(instances.map(isReady));
      // With none ready (the shared database is down) nginx keeps trying them all: their 503 with
      // Retry-After says more than nginx's "no live upstreams".
      const rotation = ready.some(Boolean) ? ready : ready.map(() => true);
      if (!stopping && rotation.some((value, index) => value !== applied[index])) {
        try {
          await nginx.reload(render(rotation));
          applied = rotation;
          rotationChanges.push({ at: Date.now(), rotation });
          log(
            `in rotation: ${instances
              .filter((_, index) => rotation[index])
              .map((i) => i.name)
              .join(', ')}`,
          );
          for (const listener of [...listeners]) listener();
        } catch (error) {
          log(`nginx reload failed: ${String(error)}`);
        }
      }
      await delay(readinessIntervalMs);
    }
  }
  const watching = watch();

  /** Resolves with the time nginx's rotation first showed `instance` as `routed` after `since`. */
  function rotationReaches(index: number, routed: boolean, since: number): Promise<number> {
    return new Promise((resolve) => {
      const check = () => {
        const change = rotationChanges.find((c) => c.at >= since && c.rotation[index] === routed);
        if (!change) return false;
        listeners.splice(listeners.indexOf(listener), 1);
        resolve(change.at);
        return true;
      };
      const listener = () => void check();
      listeners.push(listener);
      check();
    });
  }

  return {
    url: `http://${options.listen}`,
    instances,
    nginx,
    inRotation: () => Object.fromEntries(instances.map((instance, index) => [instance.name, applied[index]!])),
    async restart(index: number) {
      const instance = instances[index];
      if (!instance) throw new Error(`no instance ${index}`);
      const signalled = Date.now();
      const outOfRotation = rotationReaches(index, false, signalled);
      const exit = await instance.stop('SIGTERM');
      const outAt = await within(outOfRotation, 30_000, `${instance.name} never left the rotation`);
      log(`${instance.name} exited with ${exit.code ?? exit.signal} after ${exit.ms} ms; starting again`);
      const startedAt = Date.now();
      const backInRotation = rotationReaches(index, true, startedAt);
      await instance.start();
      const servingAt = Date.now();
      const backAt = await within(backInRotation, 30_000, `${instance.name} never came back into rotation`);
      return {
        instance: instance.name,
        exitCode: exit.code,
        outOfRotationMs: outAt - signalled,
        exitMs: exit.ms,
        startMs: servingAt - startedAt,
        totalMs: backAt - signalled,
      };
    },
    /** Idempotent: a second call finds nothing left running. */
    async stop() {
      stopping = true;
      await watching;
      const running = instances.filter((instance) => instance.pid !== undefined);
      const exits = await Promise.all(running.map((instance) => instance.stop('SIGTERM')));
      await nginx.stop();
      return exits;
    },
  };
}
