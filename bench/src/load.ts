import autocannon from 'autocannon';
import { postgresCpuMs, runnerCpuMs } from './machine-cpu.js';
import type { TargetStats } from './protocol.js';
import type { BenchSettings } from './settings.js';
import type { TargetProcess } from './target-process.js';

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
}

export interface LoadResult {
  /** 2xx answers per second of the measured window; anything else is counted as a failure below. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  ok: number;
  non2xx: number;
  errors: number;
  seconds: number;
  connections: number;
}

export async function fire(spec: LoadSpec, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: spec.url,
    method: spec.method,
    headers: spec.headers,
    ...(spec.body === undefined ? {} : { body: spec.body }),
    connections: spec.connections,
    pipelining: 1,
    duration: seconds,
  });
}

export interface Measurement {
  load: LoadResult;
  stats: TargetStats;
  /** The idle probe's loop over the same window: the machine's own noise. */
  noise: TargetStats;
  /** What the window cost the rest of the machine, which the target shares its cores with. */
  others: {
    /** The runner process: autocannon making the requests. */
    loadGeneratorCpuMs: number;
    /** Every PostgreSQL process on this machine; null when the server runs elsewhere. */
    postgresCpuMs: number | null;
  };
}

/**
 * Warm-up, then the measured window. The target's peak RSS spans both, its loop delay the window
 * only, watched alongside the idle probe's.
 */
export async function measure(
  target: TargetProcess,
  probe: TargetProcess,
  spec: LoadSpec,
  settings: BenchSettings,
): Promise<Measurement> {
  target.send({ type: 'reset-peak-rss' });
  await fire(spec, settings.warmupSeconds);
  target.send({ type: 'reset-loop-delay' });
  probe.send({ type: 'reset-loop-delay' });
  const runnerBefore = runnerCpuMs();
  const postgresBefore = postgresCpuMs();
  const result = await fire(spec, settings.durationSeconds);
  const runnerAfter = runnerCpuMs();
  const postgresAfter = postgresCpuMs();
  target.send({ type: 'report' });
  probe.send({ type: 'report' });
  const [{ stats }, { stats: noise }] = await Promise.all([target.next('report'), probe.next('report')]);
  const seconds = result.duration > 0 ? result.duration : settings.durationSeconds;
  return {
    load: {
      requestsPerSecond: result['2xx'] / seconds,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      ok: result['2xx'],
      non2xx: result.non2xx,
      errors: result.errors,
      seconds,
      connections: spec.connections,
    },
    stats,
    noise,
    others: {
      loadGeneratorCpuMs: runnerAfter - runnerBefore,
      postgresCpuMs: postgresBefore === null || postgresAfter === null ? null : postgresAfter - postgresBefore,
    },
  };
}

/** Load spread over several paths of one server, measured by nothing: warms its code up. */
export async function warmUp(
  base: string,
  paths: string[],
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<void> {
  await autocannon({
    url: base,
    connections,
    duration: seconds,
    requests: paths.map((path) => ({ method: 'GET' as const, path: `${new URL(base).pathname}${path}`, headers })),
  });
}

/** One request before the load, so a broken setup fails loudly instead of benchmarking 401s. */
export async function checkOnce(spec: LoadSpec, expect: (body: unknown) => boolean): Promise<void> {
  const response = await fetch(spec.url, {
    method: spec.method,
    headers: spec.headers,
    ...(spec.body === undefined ? {} : { body: spec.body }),
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (response.status !== 200 || !expect(body)) {
    throw new Error(`${spec.method} ${spec.url} answered ${response.status} ${JSON.stringify(body)}`);
  }
}
