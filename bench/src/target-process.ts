import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '@dataplatform/server/src/node-flags.js';
import type { RunnerMessage, TargetMessage } from './protocol.js';

export type TargetName = 'floor-server' | 'app-server' | 'argon2-hasher' | 'idle-probe' | 'studio-direct';

type MessageOf<T extends TargetMessage['type']> = Extract<TargetMessage, { type: T }>;

export interface TargetProcess {
  name: TargetName;
  pid: number;
  send(message: RunnerMessage): void;
  /** The next message of this type (buffered if it came already), or a rejection if the process dies. */
  next<T extends TargetMessage['type']>(type: T, timeoutMs?: number): Promise<MessageOf<T>>;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<void>;
}

const live = new Set<TargetProcess>();

/** Every target still running; the runner stops them on the way out, whatever happened. */
export async function stopAllTargets(): Promise<void> {
  await Promise.all([...live].map((target) => target.stop()));
}

/**
 * One measured process per scenario, so its RSS and event loop are its own. It runs the TypeScript
 * sources through tsx, with the `source` condition as the workspace scripts do, and with the node
 * flags the server runs with in production (the floor gets them too: the same runtime for both).
 */
export function startTarget(
  name: TargetName,
  options: { env: Record<string, string>; args?: string[]; scenario?: string },
) {
  const entry = fileURLToPath(new URL(`./targets/${name}.ts`, import.meta.url));
  const profileDir = process.env.BENCH_PROFILE_DIR;
  // For investigating a miss: a V8 CPU profile per scenario, written when the target exits.
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, options.scenario ?? name)}`] : [];
  // For investigating: more node flags for every target (e.g. --trace-gc, which NODE_OPTIONS refuses).
  const extra = process.env.BENCH_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  const child = fork(entry, options.args ?? [], {
    execArgv: ['--conditions=source', '--import', 'tsx', ...SERVER_NODE_FLAGS, ...profile, ...extra],
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (child.pid === undefined) throw new Error(`could not start ${name}`);

  const inbox: TargetMessage[] = [];
  const waiters: { type: TargetMessage['type']; resolve(message: TargetMessage): void; reject(error: Error): void }[] =
    [];
  let exitError: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(target);
      exitError = new Error(`${name} exited (code ${code ?? '-'}, signal ${signal ?? '-'})`);
      for (const waiter of waiters.splice(0)) waiter.reject(exitError);
      resolve();
    });
  });

  child.on('message', (message: TargetMessage) => {
    const index = waiters.findIndex((waiter) => waiter.type === message.type);
    if (index === -1) inbox.push(message);
    else waiters.splice(index, 1)[0]!.resolve(message);
  });

  const target: TargetProcess = {
    name,
    pid: child.pid,
    send(message) {
      child.send(message);
    },
    next(type, timeoutMs = 120_000) {
      const index = inbox.findIndex((message) => message.type === type);
      if (index !== -1) return Promise.resolve(inbox.splice(index, 1)[0] as MessageOf<typeof type>);
      if (exitError) return Promise.reject(exitError);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name}: no '${type}' within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          type,
          resolve: (message) => {
            clearTimeout(timer);
            resolve(message as MessageOf<typeof type>);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  live.add(target);
  return target;
}
