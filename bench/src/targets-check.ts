import type { Measurement } from './load.js';
import type { HashRunResult } from './protocol.js';
import type { TargetCheck } from './report.js';

export const TARGETS = {
  usersMeVsFloor: 0.7,
  loginVsHashRate: 0.9,
} as const;

/** The targets of the issue; one whose scenarios did not run is left out. */
export function checkTargets(runs: {
  floor?: Measurement;
  usersMe?: Measurement;
  loginFloor?: Measurement;
  login?: Measurement;
  /** The raw runs bracketing login; it is compared with their mean. */
  hashes: HashRunResult[];
}): TargetCheck[] {
  const { floor, usersMe, loginFloor, login, hashes } = runs;
  const hash = hashes.length > 0 ? meanHashRun(hashes) : undefined;
  const checks: TargetCheck[] = [];
  if (floor && usersMe) {
    const floorRate = floor.load.requestsPerSecond;
    const ratio = usersMe.load.requestsPerSecond / floorRate;
    checks.push({
      name: `users/me ≥ ${TARGETS.usersMeVsFloor} × floor`,
      measured: `${ratio.toFixed(2)} × (${usersMe.load.requestsPerSecond.toFixed(0)} vs ${floorRate.toFixed(0)} req/s)`,
      pass: ratio >= TARGETS.usersMeVsFloor,
    });
  }
  if (login && hash) {
    const ratio = login.load.requestsPerSecond / hash.hashesPerSecond;
    const rates = hashes.map((run) => run.hashesPerSecond.toFixed(1)).join(' and ');
    const rawRate =
      hashes.length > 1 ? `${hash.hashesPerSecond.toFixed(1)} hashes/s, mean of ${rates}` : `${rates} hashes/s`;
    checks.push({
      name: `login ≥ ${TARGETS.loginVsHashRate} × raw argon2id hash rate`,
      measured: `${ratio.toFixed(3)} × (${login.load.requestsPerSecond.toFixed(1)} req/s vs ${rawRate})`,
      pass: ratio >= TARGETS.loginVsHashRate,
    });
  }
  if (loginFloor && hash) {
    const ratio = loginFloor.load.requestsPerSecond / hash.hashesPerSecond;
    checks.push({
      name: 'login floor vs raw argon2id hash rate',
      measured: `${ratio.toFixed(3)} × (${loginFloor.load.requestsPerSecond.toFixed(1)} req/s): what this machine leaves a minimal login`,
      pass: null,
    });
  }
  if (login && hash) {
    // A hash run on the loop would hold it for a whole hash, request after request, so timers would be
    // late by up to that much. The machine's other work delays every loop, so the allowance sits on
    // top of what the idle probe saw in the same window.
    const p99 = login.stats.loopDelayP99Ms;
    const idle = login.noise.loopDelayP99Ms;
    const allowance = idle + hash.singleHashMs / 2;
    checks.push({
      name: 'login: loop delay p99 < idle p99 + ½ argon2id hash',
      measured: `${p99.toFixed(1)} ms vs ${allowance.toFixed(1)} ms (idle ${idle.toFixed(1)} + ${(hash.singleHashMs / 2).toFixed(1)}); loop busy ${(login.stats.loopUtilization * 100).toFixed(0)}%`,
      pass: p99 < allowance,
    });
  }
  return checks;
}

/** The raw runs' mean rate and single-hash time (the rest is not used by the checks). */
function meanHashRun(hashes: HashRunResult[]): HashRunResult {
  const mean = (pick: (run: HashRunResult) => number) =>
    hashes.reduce((sum, run) => sum + pick(run), 0) / hashes.length;
  return {
    ...hashes[0]!,
    hashesPerSecond: mean((run) => run.hashesPerSecond),
    singleHashMs: mean((run) => run.singleHashMs),
  };
}
