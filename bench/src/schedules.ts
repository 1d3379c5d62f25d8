import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createBenchDatabase, createBenchUser, type BenchDatabase } from './fixture.js';
import type { TargetCheck } from './report.js';
import type { BenchSettings } from './settings.js';
import { median } from './stats.js';
import { startTarget } from './target-process.js';

/**
 * Reports by mail on a schedule (issue 59, "Performance"): the payer report (6 blocks) scheduled
 * daily, delivered by moving the author's sandbox clock a day at a time. The advance answers once
 * the delivery is queued in the outbox (its blocks run, its chart drawn as PNG, its tables as CSV),
 * so its time is the delivery's server time plus one request. Mail goes to the log (no SMTP_HOST).
 */

export const SCHEDULE_TARGETS = {
  /** The slowest of the deliveries, in ms, the first (none of its runs cached) included. */
  deliveryMs: 2000,
  rounds: 5,
} as const;

export interface ScheduleRuns {
  blocks: number;
  /** Each advance that delivered the report, in ms; the first is cold. */
  deliveryMs: number[];
  /** An advance with nothing due, for reference. */
  idleAdvanceMs: number;
}

export async function runSchedules(context: {
  settings: BenchSettings;
  track: (database: BenchDatabase) => void;
  out: (line: string) => void;
}): Promise<ScheduleRuns> {
  const { settings, out } = context;
  const database = await createBenchDatabase(settings.databaseUrl, '_schedules');
  context.track(database);
  const admin = await createBenchUser(database.url, { superuser: true });
  const dataDir = settings.studio.dataDir ?? mkdtempSync(path.join(tmpdir(), 'dp-bench-schedules-'));
  const server = startTarget('app-server', {
    scenario: 'schedules',
    env: {
      BENCH_TARGET_DATABASE_URL: database.url,
      BENCH_TARGET_ENV: JSON.stringify({ DATA_DIR: dataDir, STUDIO_DEMO_ROWS: String(settings.studio.demoRows) }),
    },
  });
  try {
    const { port } = await server.next('ready');
    const base = `http://127.0.0.1:${port}`;
    let headers: Record<string, string> = { authorization: `Bearer ${admin.token}` };
    const call = async (method: string, url: string, body?: unknown) => {
      const started = performance.now();
      const response = await fetch(`${base}${url}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const answer = {
        status: response.status,
        ms: performance.now() - started,
        body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
      };
      if (answer.status >= 300) {
        throw new Error(`schedules: ${method} ${url} answered ${answer.status}: ${text.slice(0, 300)}`);
      }
      return answer;
    };
    const tenant = await call('POST', '/api/v1/tenants/', { name: 'Schedules bench' });
    headers = { ...headers, 'x-tenant-id': String(tenant.body.id) };
    const payer = await call('GET', '/api/v1/studio/reports/payer');
    const blocks = (payer.body.blocks as unknown[]).length;
    const schedule = await call('POST', `/api/v1/studio/reports/${String(payer.body.id)}/schedules`, {
      frequency: 'daily',
      time: '07:00',
      time_zone: 'UTC',
      addresses: ['bench-reader@example.com'],
    });
    const scheduleId = String(schedule.body.id);
    // The demo data in place first (a server makes it once, on its first Studio call), by a query the
    // delivery does not run: the first delivery still finds none of its blocks' runs cached.
    await call('GET', `/api/v1/studio/reports/${String(payer.body.id)}/params/code/options`);
    const advance = (seconds: number) =>
      call('POST', '/api/v1/subscriptions/sandbox/advance', { user_id: admin.id, seconds });
    const idleAdvanceMs = (await advance(1)).ms;
    const deliveryMs: number[] = [];
    let lastRun: unknown = null;
    for (let round = 0; round < SCHEDULE_TARGETS.rounds; round += 1) {
      out(`schedules: delivery ${round + 1} of ${SCHEDULE_TARGETS.rounds} ...`);
      deliveryMs.push((await advance(86_400)).ms);
      const listed = await call('GET', `/api/v1/studio/reports/${String(payer.body.id)}/schedules`);
      const row = (listed.body.data as { id: string; last_run_at: string | null; status_reason: string | null }[]).find(
        (candidate) => candidate.id === scheduleId,
      );
      if (!row?.last_run_at || row.last_run_at === lastRun || row.status_reason) {
        throw new Error(`schedules: the advance delivered nothing (${JSON.stringify(row)})`);
      }
      lastRun = row.last_run_at;
    }
    return { blocks, deliveryMs, idleAdvanceMs };
  } finally {
    await server.stop();
  }
}

export function checkScheduleTargets(runs: ScheduleRuns): TargetCheck[] {
  const slowest = Math.max(...runs.deliveryMs);
  return [
    {
      name: `schedules: a scheduled delivery of the payer report (${runs.blocks} blocks) takes ≤ ${SCHEDULE_TARGETS.deliveryMs / 1000} s of server time`,
      measured: `slowest ${slowest.toFixed(0)} ms (first, nothing cached: ${runs.deliveryMs[0]!.toFixed(0)} ms; median ${median(runs.deliveryMs).toFixed(0)} ms of ${runs.deliveryMs.length}; an advance with nothing due ${runs.idleAdvanceMs.toFixed(0)} ms)`,
      pass: slowest <= SCHEDULE_TARGETS.deliveryMs,
    },
  ];
}
