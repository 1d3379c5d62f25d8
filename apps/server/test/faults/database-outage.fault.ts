import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatuses, delay, report, timedRequest, type TimedAnswer } from './measure.js';
import {
  createFaultDatabase,
  logLines,
  serverUrl,
  startServerProcess,
  terminateBackends,
  type ServerProcess,
} from './server-process.js';

const CONCURRENCY = 4;
const LOAD_MS = 22_000;
/** Instant faults: every connection of the app killed; the server accepts new ones at once. */
const KILLS_AT_MS = [2_000, 5_000, 8_000, 17_000, 19_500];
/** A window in which the database refuses connections as a restarting server does. */
const OUTAGE_FROM_MS = 11_000;
const OUTAGE_MS = 4_000;
const REQUEST_TIMEOUT_MS = 20_000;

interface Outcome extends TimedAnswer {
  name: string;
}

describe('PostgreSQL connections die under a write load', () => {
  let database: Awaited<ReturnType<typeof createFaultDatabase>>;
  let server: ServerProcess;

  beforeAll(async () => {
    database = await createFaultDatabase();
    server = await startServerProcess({ DATABASE_URL: database.url, RENEWAL_POLL_INTERVAL_SECONDS: '1' });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('survives, loses no acknowledged write, answers 503 with a detail and recovers within 10 s', async () => {
    const token = await server.superuserToken();
    const started = Date.now();
    const outcomes: Outcome[] = [];
    const faults: { at: number; endsAt: number; killed: number; kind: string }[] = [];
    const readiness: { at: number; status: number }[] = [];

    async function write(name: string): Promise<void> {
      // A hang (timeout) or a dropped socket is recorded as status 0 and counted as a failure.
      const answer = await timedRequest(`${server.baseUrl}/api/v1/authorization/roles`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, description: 'written under faults' }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      outcomes.push({ name, ...answer });
    }

    async function worker(index: number): Promise<void> {
      for (let n = 0; Date.now() - started < LOAD_MS; n += 1) await write(`load-${index}-${n}`);
    }

    async function injectFaults(): Promise<void> {
      const owner = new pg.Client({ connectionString: serverUrl() });
      await owner.connect();
      try {
        const events = [
          ...KILLS_AT_MS.map((at) => ({ at, kind: 'terminate' as const })),
          { at: OUTAGE_FROM_MS, kind: 'outage' as const },
        ].sort((a, b) => a.at - b.at);
        for (const event of events) {
          await delay(Math.max(0, started + event.at - Date.now()));
          if (event.kind === 'terminate') {
            const at = Date.now();
            faults.push({ at, endsAt: at, killed: await terminateBackends(database.name), kind: 'terminate' });
            continue;
          }
          // New connections refused (as while the server restarts), existing ones killed.
          await owner.query(`ALTER DATABASE ${database.name} WITH ALLOW_CONNECTIONS false`);
          const at = Date.now();
          const killed = await terminateBackends(database.name);
          await delay(OUTAGE_MS / 2);
          const ready = await fetch(`${server.baseUrl}/readyz`);
          readiness.push({ at: Date.now() - started, status: ready.status });
          await delay(Math.max(0, at + OUTAGE_MS - Date.now()));
          await owner.query(`ALTER DATABASE ${database.name} WITH ALLOW_CONNECTIONS true`);
          faults.push({ at, endsAt: Date.now(), killed, kind: 'outage' });
        }
      } finally {
        await owner.end();
      }
    }

    await Promise.all([...Array.from({ length: CONCURRENCY }, (_, index) => worker(index)), injectFaults()]);
    const afterReady = await fetch(`${server.baseUrl}/readyz`);
    readiness.push({ at: Date.now() - started, status: afterReady.status });

    // What the database holds, read directly.
    const reader = new pg.Client({ connectionString: database.url });
    await reader.connect();
    const stored = await reader.query<{ name: string; copies: number }>(
      `SELECT name, count(*)::int AS copies FROM roles WHERE name LIKE 'load-%' GROUP BY name`,
    );
    await reader.end();
    const copies = new Map(stored.rows.map((row) => [row.name, row.copies]));

    const acknowledged = outcomes.filter((o) => o.status >= 200 && o.status < 300);
    const failed = outcomes.filter((o) => o.status < 200 || o.status >= 300);
    const lost = acknowledged.filter((o) => !copies.has(o.name));
    const duplicates = [...copies.values()].filter((count) => count > 1).length;
    const failuresWithoutDetail = failed.filter(
      (o) => o.status < 500 || typeof o.detail !== 'string' || o.detail === '',
    );
    // Recovery: from the end of each fault to the end of the first write started after it that succeeded.
    const recoveries = faults.map((fault) => {
      const first = acknowledged.filter((o) => o.startedAt >= fault.endsAt).sort((a, b) => a.endedAt - b.endedAt)[0];
      return first ? first.endedAt - fault.endsAt : Number.POSITIVE_INFINITY;
    });
    const slowest = Math.max(...outcomes.map((o) => o.endedAt - o.startedAt));

    report('database-outage', {
      requests: outcomes.length,
      statuses: countStatuses(outcomes),
      acknowledged: acknowledged.length,
      stored: copies.size,
      lost: lost.length,
      duplicates,
      failuresWithoutDetail: failuresWithoutDetail.length,
      failuresWithoutRetryAfter: failed.filter((o) => o.status === 503 && o.retryAfter === null).length,
      faults: faults.map((f) => `${f.kind}@${f.at - started}ms killed=${f.killed}`),
      recoveryMs: recoveries,
      slowestRequestMs: slowest,
      readiness,
      workerPauses: logLines(server, /worker paused/).length,
      workerResumes: logLines(server, /worker resumed/).length,
      processAlive: server.exit === undefined,
    });

    expect(server.exit).toBeUndefined();
    expect(failed.length).toBeGreaterThan(0);
    expect(lost).toEqual([]);
    expect(duplicates).toBe(0);
    expect(failuresWithoutDetail).toEqual([]);
    expect(Math.max(...recoveries)).toBeLessThanOrEqual(10_000);
    expect(readiness[0]?.status).toBe(503);
    expect(afterReady.status).toBe(200);
    // And it still serves after the faults.
    const after = await fetch(`${server.baseUrl}/api/v1/authorization/roles`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'after-the-faults' }),
    });
    expect(after.status).toBe(201);
  });
});
