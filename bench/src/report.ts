import type { ListRun, ListsRuns } from './lists-run.js';
import type { Measurement } from './load.js';
import type { HashRunResult, TargetStats } from './protocol.js';

export interface ScenarioResult {
  id: 'floor' | 'users-me' | 'login-floor' | 'login' | 'argon2id';
  label: string;
  /** 2xx answers (or hashes) per second of the measured window. */
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Requests answered (or hashes done) in the window: the divisor of the CPU costs. */
  operations: number;
  /** Null for the raw hash run, which has no HTTP. */
  ratioToFloor: number | null;
  failures: number;
  /** The measured process over the window (its peak RSS also spans the warm-up). */
  target: TargetStats;
  /** The idle probe's loop over the same window (null for the hash run, whose own loop is idle). */
  idleProbe: TargetStats | null;
  /** CPU the window cost outside the target (null for the hash run, which has no load or database). */
  others: Measurement['others'] | null;
  detail: Record<string, unknown>;
}

export interface TargetCheck {
  name: string;
  measured: string;
  /** Null for a reference: a number printed beside the targets to read them by, not a target. */
  pass: boolean | null;
}

export function httpResult(
  id: ScenarioResult['id'],
  label: string,
  { load, stats, noise, others }: Measurement,
  /** Against the users/me floor (`pairedRatio`'s median); null for the login rows, which the hash rate measures instead. */
  ratioToFloor: number | null,
): ScenarioResult {
  return {
    id,
    label,
    perSecond: load.requestsPerSecond,
    p50Ms: load.p50Ms,
    p99Ms: load.p99Ms,
    operations: load.ok + load.non2xx,
    ratioToFloor,
    failures: load.non2xx + load.errors,
    target: stats,
    idleProbe: noise,
    others,
    detail: { ...load },
  };
}

/** `when` tells the two raw runs around login apart ("before login", "after login"). */
export function hashResult(hash: HashRunResult, when: string | null = null): ScenarioResult {
  const { stats, ...detail } = hash;
  return {
    id: 'argon2id',
    label: `argon2id hash, ${hash.concurrency} callers${when ? `, ${when}` : ''}`,
    perSecond: hash.hashesPerSecond,
    p50Ms: hash.p50Ms,
    p99Ms: hash.p99Ms,
    operations: hash.hashes,
    ratioToFloor: null,
    failures: 0,
    target: stats,
    idleProbe: null,
    others: null,
    detail,
  };
}

const MIB = 1024 * 1024;
const fixed = (value: number | null, digits = 1) => (value === null ? '-' : value.toFixed(digits));
const percent = (share: number | null) => (share === null ? '-' : `${(share * 100).toFixed(0)}%`);
const perOperation = (ms: number | null, result: ScenarioResult) =>
  ms === null || result.operations === 0 ? null : ms / result.operations;

/** A plain-text table: first column left-aligned, the rest right-aligned. */
function table(header: readonly string[], rows: string[][]): string {
  const all = [[...header], ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((cells) => cells[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  return [line(all[0]!), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

export function formatResults(results: readonly ScenarioResult[]): string {
  return table(
    ['scenario', 'per s', 'p50 ms', 'p99 ms', 'peak RSS', 'vs floor', 'loop delay p99 ms', 'failed'],
    results.map((result) => [
      result.label,
      result.perSecond.toFixed(result.perSecond < 1000 ? 1 : 0),
      fixed(result.p50Ms),
      fixed(result.p99Ms),
      `${(result.target.peakRssBytes / MIB).toFixed(1)} MiB${result.target.peakRssSinceReset ? '' : '*'}`,
      fixed(result.ratioToFloor, 2),
      fixed(result.target.loopDelayP99Ms),
      String(result.failures),
    ]),
  );
}

/**
 * Where the time went, in numbers the machine's other work barely moves: CPU per request on the
 * loop thread and on the others (libuv's pool: hashing, HMAC), how busy the loop was, how long it
 * waited for a CPU, and what an idle loop on the same machine saw meanwhile.
 */
export function formatDiagnosis(results: readonly ScenarioResult[]): string {
  return table(
    [
      'scenario',
      'loop CPU ms/op',
      'other CPU ms/op',
      'autocannon CPU ms/op',
      'postgres CPU ms/op',
      'loop busy',
      'loop waiting for CPU',
      'idle loop p99 ms',
    ],
    results.map((result) => {
      const { target } = result;
      const other = target.loopThreadCpuMs === null ? null : target.processCpuMs - target.loopThreadCpuMs;
      return [
        result.label,
        fixed(perOperation(target.loopThreadCpuMs, result), 3),
        fixed(perOperation(other, result), 3),
        fixed(perOperation(result.others?.loadGeneratorCpuMs ?? null, result), 3),
        fixed(perOperation(result.others?.postgresCpuMs ?? null, result), 3),
        percent(target.loopUtilization),
        percent(target.loopThreadWaitMs === null ? null : target.loopThreadWaitMs / target.windowMs),
        fixed(result.idleProbe?.loopDelayP99Ms ?? null),
      ];
    }),
  );
}

export function formatChecks(checks: readonly TargetCheck[]): string {
  const width = Math.max(...checks.map((check) => check.name.length));
  return checks
    .map((check) => {
      const verdict = check.pass === null ? 'REF ' : check.pass ? 'PASS' : 'MISS';
      return `${verdict}  ${check.name.padEnd(width)}  ${check.measured}`;
    })
    .join('\n');
}

/** Which of a list's explained queries reads the page and which the count. */
function explainedMs(run: ListRun, kind: 'page' | 'count'): number | null {
  const query = run.explained.find((explained) => /row_counts|count\(/.test(explained.sql) === (kind === 'count'));
  return query?.executionMs ?? null;
}

/**
 * Each list scenario at both sizes: req/s, latency, and how long PostgreSQL took for the page and
 * the count at the large size (EXPLAIN ANALYZE, server time only).
 */
export function formatLists(lists: ListsRuns): string {
  const [small, large] = lists.fixtures.map((fixture) => fixture.rows);
  return table(
    [
      'list scenario',
      `req/s ${small}`,
      `req/s ${large}`,
      'ratio',
      `p99 ms ${small}`,
      `p99 ms ${large}`,
      'page ms',
      'count ms',
      'failed',
    ],
    lists.runs.map((run) => [
      `${run.scenario.label}${run.scenario.targeted ? '' : ' (no target)'}`,
      run.small.requestsPerSecond.toFixed(0),
      run.large.requestsPerSecond.toFixed(0),
      (run.large.requestsPerSecond / run.small.requestsPerSecond).toFixed(2),
      fixed(run.small.p99Ms),
      fixed(run.large.p99Ms),
      fixed(explainedMs(run, 'page'), 2),
      fixed(explainedMs(run, 'count'), 2),
      String(run.small.non2xx + run.small.errors + run.large.non2xx + run.large.errors),
    ]),
  );
}

/** One line per explained query: the plan's top node and what it read. */
export function formatPlans(lists: ListsRuns): string {
  return lists.runs
    .flatMap((run) => [
      `${run.scenario.label}: ${run.paths[1]}`,
      ...run.explained.map((query) => `  ${query.executionMs.toFixed(2).padStart(7)} ms  ${query.summary}`),
    ])
    .join('\n');
}
