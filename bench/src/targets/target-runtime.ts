import { readFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { RunnerMessage, TargetMessage, TargetStats } from '../protocol.js';

/** Sampling interval of the event-loop monitor; Node's samples include it, so it is subtracted. */
const LOOP_RESOLUTION_MS = 10;
const NS_PER_MS = 1e6;

/** Resolves once the message is handed to the IPC channel. */
export function send(message: TargetMessage): Promise<void> {
  const channel = process.send?.bind(process);
  if (!channel) throw new Error('a bench target must be started by the bench runner (no IPC channel)');
  return new Promise((resolve, reject) => {
    channel(message, undefined, undefined, (error: Error | null) => (error ? reject(error) : resolve()));
  });
}

/** Linux's high-water mark of resident memory for this process (VmHWM), else getrusage's lifetime peak. */
function peakRssBytes(): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match?.[1]) return Number(match[1]) * 1024;
  } catch {
    // Not Linux: fall through.
  }
  return process.resourceUsage().maxRSS * 1024;
}

/** Writing 5 to clear_refs resets VmHWM to the current RSS (Linux ≥ 4.0). */
function resetPeakRss(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** On-CPU and waiting-for-CPU time of the main thread, in ns, from the scheduler's own counters. */
function loopThreadSchedule(): { cpuNs: number; waitNs: number } | null {
  try {
    const [cpuNs, waitNs] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').trim().split(/\s+/);
    return { cpuNs: Number(cpuNs), waitNs: Number(waitNs) };
  } catch {
    return null;
  }
}

interface WindowStart {
  at: number;
  loop: ReturnType<typeof performance.eventLoopUtilization>;
  cpu: NodeJS.CpuUsage;
  thread: ReturnType<typeof loopThreadSchedule>;
}

function windowStart(): WindowStart {
  return {
    at: performance.now(),
    loop: performance.eventLoopUtilization(),
    cpu: process.cpuUsage(),
    thread: loopThreadSchedule(),
  };
}

/**
 * Everything a measured process shares: an event-loop monitor, CPU accounting and the peak RSS, reset
 * and reported on the runner's request, and a clean stop on SIGTERM.
 */
export function startTargetRuntime(options: { close: () => Promise<void> }) {
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loopDelay.enable();
  let since = windowStart();
  let peakRssSinceReset = false;
  const resetLoop = () => {
    loopDelay.reset();
    since = windowStart();
  };

  const delayMs = (nanoseconds: number) => Math.max(0, nanoseconds / NS_PER_MS - LOOP_RESOLUTION_MS);

  function stats(): TargetStats {
    const cpu = process.cpuUsage(since.cpu);
    const thread = loopThreadSchedule();
    const threadSince = since.thread;
    return {
      peakRssBytes: peakRssBytes(),
      peakRssSinceReset,
      loopDelayP50Ms: delayMs(loopDelay.percentile(50)),
      loopDelayP99Ms: delayMs(loopDelay.percentile(99)),
      loopDelayMaxMs: delayMs(loopDelay.max),
      loopUtilization: performance.eventLoopUtilization(since.loop).utilization,
      windowMs: performance.now() - since.at,
      processCpuMs: (cpu.user + cpu.system) / 1000,
      loopThreadCpuMs: thread && threadSince ? (thread.cpuNs - threadSince.cpuNs) / NS_PER_MS : null,
      loopThreadWaitMs: thread && threadSince ? (thread.waitNs - threadSince.waitNs) / NS_PER_MS : null,
    };
  }

  process.on('message', (message: RunnerMessage) => {
    switch (message.type) {
      case 'reset-peak-rss':
        peakRssSinceReset = resetPeakRss();
        break;
      case 'reset-loop-delay':
        resetLoop();
        break;
      case 'report':
        void send({ type: 'report', stats: stats() });
        break;
    }
  });

  let closing = false;
  process.on('SIGTERM', () => {
    if (closing) return;
    closing = true;
    loopDelay.disable();
    options
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        process.stderr.write(`bench target failed to close: ${String(error)}\n`);
        process.exit(1);
      });
  });
  // The runner gone (crash, Ctrl-C): do not linger.
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));

  return {
    stats,
    resetPeakRss: () => {
      peakRssSinceReset = resetPeakRss();
    },
    resetLoopDelay: resetLoop,
  };
}
