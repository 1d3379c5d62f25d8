import type { ChildProcess } from 'node:child_process';

/**
 * What stops `child`: `signal` if it is still running, then waiting for it to exit, then `cleanup`
 * (its temporary folder). Safe to call twice.
 */
export function stopperFor(child: ChildProcess, signal: NodeJS.Signals, cleanup: () => void): () => Promise<void> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      await exited;
    }
    cleanup();
  };
}

/**
 * Asks `ready` every `intervalMs` until it says yes. If the child exits first or `timeoutMs` passes,
 * stops it and throws, naming it as `what`.
 */
export async function waitUntilReady(
  child: ChildProcess,
  stop: () => Promise<void>,
  ready: () => Promise<boolean>,
  options: { what: string; timeoutMs: number; intervalMs: number },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`${options.what} exited with code ${child.exitCode} while starting`);
    }
    if (await ready()) return;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${options.what} was not ready within ${options.timeoutMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
  }
}
