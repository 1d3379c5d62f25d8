import autocannon from 'autocannon';
import { postgresCpu, postgresCpuSpentMs, runnerCpuMs } from './machine-cpu.js';
import type { TargetStats } from './protocol.js';
import type { BenchSettings } from './settings.js';
import type { TargetProcess } from './target-process.js';
import { median } from './stats.js';

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
  /**
   * Each paired round's window on its own, in round order (one entry when measured alone): a
   * floor's and its endpoint's windows of the same round ran next to each other in time.
   */
  rounds: LoadResult[];
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

/** One target and the load it is measured under. */
export interface MeasuredTarget {
  target: TargetProcess;
  spec: LoadSpec;
}

/**
 * Several targets measured in turn, round after round, each for `rounds` windows that add up to the
 * scenario's duration. The machine's speed drifts by several per cent within a minute; windows side
 * by side in time let that drift weigh on every target alike. The order flips every round (a, b,
 * b, a, a, b, …), so a steady drift favours neither: with the same order every round, the target
 * measured second would always meet the machine a little later than the first. Each target warms
 * up first; its peak RSS spans warm-up and windows, its loop delay the windows only, watched
 * alongside the idle probe's.
 */
export async function measureInTurn(
  targets: readonly MeasuredTarget[],
  probe: TargetProcess,
  settings: BenchSettings,
  rounds: number,
): Promise<Measurement[]> {
  for (const { target, spec } of targets) {
    target.send({ type: 'reset-peak-rss' });
    await fire(spec, settings.warmupSeconds);
  }
  const windows = targets.map(() => [] as Measurement[]);
  const indexes = targets.map((_, index) => index);
  for (let round = 0; round < rounds; round += 1) {
    for (const index of round % 2 === 0 ? indexes : [...indexes].reverse()) {
      const { target, spec } = targets[index]!;
      windows[index]!.push(await measureWindow(target, probe, spec, settings.durationSeconds / rounds));
    }
  }
  return windows.map(combineWindows);
}

/**
 * An endpoint's rate against its floor's: the median of the rounds' ratios, each taken from two
 * windows measured next to each other, so a few seconds of a busier machine move one round's ratio
 * rather than the whole figure. The pooled ratio (all windows' answers over all their time) and
 * the rounds' range are kept beside it.
 */
export interface PairedRatio {
  median: number;
  min: number;
  max: number;
  pooled: number;
  rounds: number;
}

export function pairedRatio(endpoint: Measurement, floor: Measurement): PairedRatio {
  const count = Math.min(endpoint.rounds.length, floor.rounds.length);
  const ratios = Array.from(
    { length: count },
    (_, round) => endpoint.rounds[round]!.requestsPerSecond / floor.rounds[round]!.requestsPerSecond,
  );
  return {
    median: median(ratios),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
    pooled: endpoint.load.requestsPerSecond / floor.load.requestsPerSecond,
    rounds: count,
  };
}

async function measureWindow(
  target: TargetProcess,
  probe: TargetProcess,
  spec: LoadSpec,
  seconds: number,
): Promise<Measurement> {
  target.send({ type: 'reset-loop-delay' });
  probe.send({ type: 'reset-loop-delay' });
  const runnerBefore = runnerCpuMs();
  const postgresBefore = postgresCpu();
  const result = await fire(spec, seconds);
  const runnerAfter = runnerCpuMs();
  const postgresAfter = postgresCpu();
  target.send({ type: 'report' });
  probe.send({ type: 'report' });
  const [{ stats }, { stats: noise }] = await Promise.all([target.next('report'), probe.next('report')]);
  const measuredSeconds = result.duration > 0 ? result.duration : seconds;
  const load: LoadResult = {
    requestsPerSecond: result['2xx'] / measuredSeconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    seconds: measuredSeconds,
    connections: spec.connections,
  };
  return {
    load,
    rounds: [load],
    stats,
    noise,
    others: {
      loadGeneratorCpuMs: runnerAfter - runnerBefore,
      postgresCpuMs: postgresCpuSpentMs(postgresBefore, postgresAfter),
    },
  };
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const sumOrNull = (values: readonly (number | null)[]) =>
  values.some((value) => value === null) ? null : sum(values as number[]);

/** One target's windows as one measurement: counts and times add up, latencies and delays take the rounds' median and worst. */
function combineStats(windows: readonly TargetStats[]): TargetStats {
  const windowMs = sum(windows.map((each) => each.windowMs));
  return {
    peakRssBytes: Math.max(...windows.map((each) => each.peakRssBytes)),
    peakRssSinceReset: windows.every((each) => each.peakRssSinceReset),
    loopDelayP50Ms: median(windows.map((each) => each.loopDelayP50Ms)),
    loopDelayP99Ms: Math.max(...windows.map((each) => each.loopDelayP99Ms)),
    loopDelayMaxMs: Math.max(...windows.map((each) => each.loopDelayMaxMs)),
    loopUtilization: sum(windows.map((each) => each.loopUtilization * each.windowMs)) / windowMs,
    windowMs,
    processCpuMs: sum(windows.map((each) => each.processCpuMs)),
    loopThreadCpuMs: sumOrNull(windows.map((each) => each.loopThreadCpuMs)),
    loopThreadWaitMs: sumOrNull(windows.map((each) => each.loopThreadWaitMs)),
  };
}

function combineWindows(windows: readonly Measurement[]): Measurement {
  if (windows.length === 1) return windows[0]!;
  const loads = windows.map((each) => each.load);
  const ok = sum(loads.map((each) => each.ok));
  const seconds = sum(loads.map((each) => each.seconds));
  return {
    load: {
      requestsPerSecond: ok / seconds,
      p50Ms: median(loads.map((each) => each.p50Ms)),
      p99Ms: median(loads.map((each) => each.p99Ms)),
      ok,
      non2xx: sum(loads.map((each) => each.non2xx)),
      errors: sum(loads.map((each) => each.errors)),
      seconds,
      connections: loads[0]!.connections,
    },
    rounds: loads,
    stats: combineStats(windows.map((each) => each.stats)),
    noise: combineStats(windows.map((each) => each.noise)),
    others: {
      loadGeneratorCpuMs: sum(windows.map((each) => each.others.loadGeneratorCpuMs)),
      postgresCpuMs: sumOrNull(windows.map((each) => each.others.postgresCpuMs)),
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
