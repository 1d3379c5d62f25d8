/** Messages between the bench runner and the processes it measures (over the fork IPC channel). */

export type RunnerMessage =
  /** Start counting peak RSS from now (before the warm-up). */
  | { type: 'reset-peak-rss' }
  /** Start the event-loop delay histogram from now (before the measured window). */
  | { type: 'reset-loop-delay' }
  | { type: 'report' }
  /** The Studio section's direct runs: one query on DuckDB or PostgreSQL, timed inside the target. */
  | { type: 'direct-query'; engine: 'duckdb' | 'postgres'; sql: string };

export interface TargetStats {
  peakRssBytes: number;
  /** False when the kernel would not reset the high-water mark: the peak then covers the whole process life. */
  peakRssSinceReset: boolean;
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** Share of the window the loop spent running code rather than waiting for I/O (0–1). */
  loopUtilization: number;
  windowMs: number;
  /** CPU time of the whole process over the window (every thread: the loop, libuv's pool, V8's helpers). */
  processCpuMs: number;
  /** CPU time of the main (event-loop) thread alone; null off Linux. */
  loopThreadCpuMs: number | null;
  /** Time the main thread was ready to run but waited for a CPU: other work's share of the delay; null off Linux. */
  loopThreadWaitMs: number | null;
}

export interface HashRunResult {
  concurrency: number;
  hashes: number;
  seconds: number;
  hashesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Median time of one hash with nothing else hashing: the CPU time a blocking hash would steal from a loop. */
  singleHashMs: number;
  stats: TargetStats;
}

export type TargetMessage =
  | { type: 'ready'; port: number }
  | { type: 'report'; stats: TargetStats }
  | { type: 'hash-result'; result: HashRunResult }
  /** A direct query's time (from the call to all rows read into JavaScript) and its rows. */
  | { type: 'direct-result'; ms: number; rows: unknown[][]; error?: string };
