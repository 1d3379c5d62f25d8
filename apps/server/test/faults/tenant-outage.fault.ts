import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatuses, delay, report, timedRequest, type TimedAnswer } from './measure.js';
import {
  createFaultDatabase,
  serverUrl,
  startServerProcess,
  terminateBackends,
  type ServerProcess,
} from './server-process.js';

const LOAD_MS = 9_000;
const KILLS_AT_MS = [1_500, 2_500, 3_500];
const GONE_FROM_MS = 4_500;
const GONE_UNTIL_MS = 7_500;

describe('a tenant database goes away while its pool is in use', () => {
  let main: Awaited<ReturnType<typeof createFaultDatabase>>;
  let tenantA: Awaited<ReturnType<typeof createFaultDatabase>>;
  let tenantB: Awaited<ReturnType<typeof createFaultDatabase>>;
  let server: ServerProcess;

  beforeAll(async () => {
    main = await createFaultDatabase();
    tenantA = await createFaultDatabase();
    tenantB = await createFaultDatabase();
    server = await startServerProcess({ DATABASE_URL: main.url, TENANT_DB_CONNECT_TIMEOUT_SECONDS: '2' });
  });

  afterAll(async () => {
    await server?.stop();
    await main?.drop();
    await tenantA?.drop();
    await tenantB?.drop();
  });

  it('answers 503 for that tenant only, and serves it again once the database is back', async () => {
    const token = await server.superuserToken();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const tenantIds: string[] = [];
    for (const [name, database] of [
      ['Fault tenant A', tenantA],
      ['Fault tenant B', tenantB],
    ] as const) {
      const created = await fetch(`${server.baseUrl}/api/v1/tenants/`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name, dburl: database.url }),
      });
      expect(created.status).toBe(201);
      tenantIds.push(((await created.json()) as { id: string }).id);
    }
    const [idA, idB] = tenantIds as [string, string];

    const started = Date.now();
    const outcomes: (TimedAnswer & { tenant: 'A' | 'B' })[] = [];
    async function loop(tenant: 'A' | 'B', id: string) {
      while (Date.now() - started < LOAD_MS) {
        const answer = await timedRequest(`${server.baseUrl}/api/v1/tenants/current/tables?limit=100`, {
          headers: { authorization: `Bearer ${token}`, 'x-tenant-id': id },
          signal: AbortSignal.timeout(15_000),
        });
        outcomes.push({ tenant, ...answer });
      }
    }
    let backAt = 0;
    const kills: number[] = [];
    async function faults() {
      const owner = new pg.Client({ connectionString: serverUrl() });
      await owner.connect();
      try {
        for (const at of KILLS_AT_MS) {
          await delay(Math.max(0, started + at - Date.now()));
          kills.push(await terminateBackends(tenantA.name));
        }
        await delay(Math.max(0, started + GONE_FROM_MS - Date.now()));
        await owner.query(`ALTER DATABASE ${tenantA.name} WITH ALLOW_CONNECTIONS false`);
        kills.push(await terminateBackends(tenantA.name));
        await delay(Math.max(0, started + GONE_UNTIL_MS - Date.now()));
        await owner.query(`ALTER DATABASE ${tenantA.name} WITH ALLOW_CONNECTIONS true`);
        backAt = Date.now();
      } finally {
        await owner.end();
      }
    }
    await Promise.all([loop('A', idA), loop('A', idA), loop('A', idA), loop('B', idB), faults()]);

    const ofA = outcomes.filter((o) => o.tenant === 'A');
    const ofB = outcomes.filter((o) => o.tenant === 'B');
    const failedA = ofA.filter((o) => o.status !== 200);
    const firstBack = ofA
      .filter((o) => o.startedAt >= backAt && o.status === 200)
      .sort((a, b) => a.endedAt - b.endedAt)[0];
    report('tenant-outage', {
      tenantA: countStatuses(ofA),
      tenantB: countStatuses(ofB),
      killed: kills,
      recoveryMs: firstBack ? firstBack.endedAt - backAt : null,
      slowestMs: Math.max(...outcomes.map((o) => o.endedAt - o.startedAt)),
      alive: server.exit === undefined,
    });

    expect(server.exit).toBeUndefined();
    expect(failedA.length).toBeGreaterThan(0);
    for (const o of failedA) {
      expect(o.status).toBe(503);
      expect(typeof o.detail).toBe('string');
      expect(o.retryAfter).not.toBeNull();
    }
    expect(ofB.length).toBeGreaterThan(0);
    expect(ofB.every((o) => o.status === 200)).toBe(true);
    expect(firstBack).toBeDefined();
    expect(firstBack!.endedAt - backAt).toBeLessThanOrEqual(10_000);
  });
});
