import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Kernel clock ticks per second, the unit of CPU times in /proc/<pid>/stat. */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time so far of each PostgreSQL server process on this machine, in ms, by pid. */
export type PostgresCpu = Map<string, number>;

/**
 * Every PostgreSQL server process's CPU time so far (the postmaster, backends, WAL writer,
 * autovacuum workers); null when there is none to see (a database elsewhere, or no /proc). Each
 * process's times are world-readable, so the bench needs no rights on the server. Ten ms steps.
 */
export function postgresCpu(): PostgresCpu | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const byPid: PostgresCpu = new Map();
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid ...": comm may hold spaces, so split after its closing parenthesis.
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    if (comm !== 'postgres') continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime) are 12 and 13 after "pid (comm) ".
    byPid.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
  }
  return byPid.size > 0 ? byPid : null;
}

/**
 * What PostgreSQL's processes spent between two snapshots. Taken process by process: an autovacuum
 * worker that started in between counts whole, and one that exited counts nothing (its time is no
 * longer in /proc), where a difference of two sums would go negative by all the time it had spent.
 */
export function postgresCpuSpentMs(before: PostgresCpu | null, after: PostgresCpu | null): number | null {
  if (before === null || after === null) return null;
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

/** CPU time of this process (the runner, where autocannon generates the load), in ms. */
export function runnerCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}
