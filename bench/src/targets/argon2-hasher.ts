import { performance } from 'node:perf_hooks';
import { hashPassword } from '@dataplatform/server/src/lib/passwords.js';
import { percentile } from '../stats.js';
import { send, startTargetRuntime } from './target-runtime.js';

/**
 * The ceiling for login: the server's own hashPassword (argon2id, its parameters) run back to back by
 * as many callers as the libuv pool has threads, so every thread is busy all the time.
 */
interface HashRunOptions {
  warmupSeconds: number;
  seconds: number;
  concurrency: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as HashRunOptions;
const PASSWORD = 'correct horse battery staple';
const CALIBRATION_HASHES = 20;

async function hashFor(seconds: number, concurrency: number): Promise<number[]> {
  const durations: number[] = [];
  const end = performance.now() + seconds * 1000;
  const caller = async () => {
    while (performance.now() < end) {
      const start = performance.now();
      await hashPassword(PASSWORD);
      durations.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  return durations;
}

const runtime = startTargetRuntime({ close: async () => undefined });

await hashFor(0.2, 1);
const single: number[] = [];
for (let i = 0; i < CALIBRATION_HASHES; i += 1) {
  const start = performance.now();
  await hashPassword(PASSWORD);
  single.push(performance.now() - start);
}

runtime.resetPeakRss();
await hashFor(options.warmupSeconds, options.concurrency);
runtime.resetLoopDelay();
const started = performance.now();
const durations = await hashFor(options.seconds, options.concurrency);
const seconds = (performance.now() - started) / 1000;

await send({
  type: 'hash-result',
  result: {
    concurrency: options.concurrency,
    hashes: durations.length,
    seconds,
    hashesPerSecond: durations.length / seconds,
    p50Ms: percentile(durations, 50),
    p99Ms: percentile(durations, 99),
    singleHashMs: percentile(single, 50),
    stats: runtime.stats(),
  },
});
process.exit(0);
