import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.js';
import { AppError } from '../../../lib/errors.js';
import { createStudioEngine, type RunRequest, type StudioEngine } from './engine.js';

const ROWS = 20_000;
const silentLog = Fastify({ logger: false }).log;
let dir: string;
let engine: StudioEngine;

function makeEngine(env: Record<string, string> = {}) {
  const config = loadConfig({
    ENVIRONMENT: 'local',
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    DATA_DIR: dir,
    STUDIO_DEMO_ROWS: String(ROWS),
    ...env,
  });
  return createStudioEngine({ config, log: silentLog });
}

const demo = (sql: string, extra: Partial<RunRequest> = {}): RunRequest => ({
  scope: { tenantId: null },
  source: 'demo',
  sql,
  params: {},
  shape: 'capped',
  ...extra,
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ran';
  } catch (error) {
    if (error instanceof AppError) return error.errorCode;
    throw error;
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'studio-engine-'));
  engine = makeEngine();
}, 60_000);

afterAll(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the demo source', () => {
  it('is generated with STUDIO_DEMO_ROWS rates and the other tables, deterministically', async () => {
    const result = await engine.run(demo('SELECT count(*) AS n, count(DISTINCT payer) AS payers FROM rates'));
    expect(result.rows).toEqual([[ROWS, 12]]);
    const tables = await engine.listTables({ tenantId: null }, 'demo');
    expect(tables.map((table) => table.name).sort()).toEqual(
      ['billing_codes', 'fee_schedule', 'hospital_charges', 'localities', 'rates'].sort(),
    );
    const rates = tables.find((table) => table.name === 'rates');
    expect(rates?.columns.map((column) => column.name)).toEqual([
      'payer',
      'plan_name',
      'plan_type',
      'npi',
      'provider_group',
      'billing_code_type',
      'billing_code',
      'description',
      'negotiated_type',
      'negotiated_rate',
      'billing_class',
      'state',
      'expiration_date',
    ]);
    const first = await engine.run(demo('SELECT * FROM rates', { shape: 'page', limit: 3 }));
    // A second engine on a fresh folder generates the same rows.
    const otherDir = await mkdtemp(path.join(tmpdir(), 'studio-engine-'));
    const other = createStudioEngine({
      config: loadConfig({
        ENVIRONMENT: 'local',
        SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
        DATA_DIR: otherDir,
        STUDIO_DEMO_ROWS: String(ROWS),
      }),
      log: silentLog,
    });
    try {
      expect((await other.run(demo('SELECT * FROM rates', { shape: 'page', limit: 3 }))).rows).toEqual(first.rows);
    } finally {
      await other.close();
      await rm(otherDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('computes allowed amounts from the fee schedule and localities', async () => {
    const result = await engine.run(
      demo(
        `SELECT f.billing_code, round((f.work_rvu * l.work_gpci + f.pe_rvu * l.pe_gpci + f.mp_rvu * l.mp_gpci)
              * f.conversion_factor, 2) AS allowed
            FROM fee_schedule f CROSS JOIN localities l WHERE f.billing_code = :code AND l.state = 'TX'`,
        {
          params: { code: '99213' },
        },
      ),
    );
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0]?.[0]).toBe('99213');
    expect(typeof result.rows[0]?.[1]).toBe('number');
  });
});

describe('pages', () => {
  it('have an exact count, the requested sort and page, and an empty page past the end', async () => {
    const sql = 'SELECT payer, npi, negotiated_rate FROM rates WHERE billing_code = :code';
    const all = await engine.run(
      demo(`SELECT count(*) FROM rates WHERE billing_code = :code`, { params: { code: '99213' } }),
    );
    const total = all.rows[0]?.[0] as number;
    const page = await engine.run(
      demo(sql, {
        shape: 'page',
        params: { code: '99213' },
        skip: 5,
        limit: 10,
        sort: [{ column: 'negotiated_rate', direction: 'desc' }],
      }),
    );
    expect(page.count).toBe(total);
    expect(page.rows).toHaveLength(10);
    expect(page.columns.map((column) => column.name)).toEqual(['payer', 'npi', 'negotiated_rate']);
    const rates = page.rows.map((row) => row[2] as number);
    expect([...rates].sort((a, b) => b - a)).toEqual(rates);
    const past = await engine.run(demo(sql, { shape: 'page', params: { code: '99213' }, skip: total + 10, limit: 10 }));
    expect(past.rows).toEqual([]);
    expect(past.count).toBe(total);
  });

  it('refuse a sort by a column the result does not have', async () => {
    const request = demo('SELECT payer FROM rates', { shape: 'page', sort: [{ column: 'npi', direction: 'asc' }] });
    expect(await codeOf(engine.run(request))).toBe('query_refused');
  });

  it('cap charts and KPIs, with an answer that says to aggregate', async () => {
    await expect(engine.run(demo('SELECT * FROM rates'))).rejects.toMatchObject({
      errorCode: 'result_too_large',
      message: expect.stringContaining('aggregate') as string,
    });
  });
});

describe('parameters', () => {
  it('are bound, never spliced: a value holding SQL is only a value', async () => {
    const result = await engine.run(
      demo('SELECT count(*) FROM rates WHERE billing_code = :code', {
        params: { code: "99213' OR '1'='1" },
      }),
    );
    expect(result.rows).toEqual([[0]]);
    const drop = await engine.run(demo('SELECT :text AS t', { params: { text: "x'); DROP TABLE rates; --" } }));
    expect(drop.rows).toEqual([["x'); DROP TABLE rates; --"]]);
    expect((await engine.run(demo('SELECT count(*) FROM rates'))).rows).toEqual([[ROWS]]);
  });

  it('must all have values; numbers, booleans and null bind too', async () => {
    expect(await codeOf(engine.run(demo('SELECT :missing AS v')))).toBe('query_refused');
    const result = await engine.run(
      demo('SELECT :n + 1 AS n, :b AS b, :z AS z', { params: { n: 41, b: true, z: null } }),
    );
    expect(result.rows).toEqual([[42, true, null]]);
  });

  it('inside strings and comments and casts are not parameters', async () => {
    const result = await engine.run(demo("SELECT ':code' AS a, 1::INTEGER AS b -- :nothing"));
    expect(result.rows).toEqual([[':code', 1]]);
  });
});

describe('the cache and single flight', () => {
  it('serve a repeated run from the cache and run identical runs in flight once', async () => {
    const sql = 'SELECT payer, median(negotiated_rate) AS m FROM rates GROUP BY payer ORDER BY payer';
    const first = await engine.run(demo(sql, { cacheKey: 'r:1:b', cacheTtlSeconds: 60 }));
    expect(first.cached).toBe(false);
    const second = await engine.run(demo(sql, { cacheKey: 'r:1:b', cacheTtlSeconds: 60 }));
    expect(second.cached).toBe(true);
    expect(second.rows).toEqual(first.rows);
    const together = await Promise.all(
      Array.from({ length: 20 }, () => engine.run(demo(`${sql} LIMIT 5`, { cacheKey: 'r:1:c', cacheTtlSeconds: 0 }))),
    );
    // Twenty viewers and a limit of four queries at once: none was refused, so they shared one run.
    expect(new Set(together.map((result) => JSON.stringify(result.rows))).size).toBe(1);
  });
});

describe('limits', () => {
  it('stop a runaway query at the time limit, and the next query answers', async () => {
    const slow = makeEngine({ STUDIO_QUERY_TIMEOUT_SECONDS: '0.5' });
    try {
      const started = Date.now();
      expect(await codeOf(slow.run(demo('SELECT count(*) FROM range(10000000000) t(i) WHERE hash(i) % 7 = 1')))).toBe(
        'query_timeout',
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      expect((await slow.run(demo('SELECT 1 AS one'))).rows).toEqual([[1]]);
    } finally {
      await slow.close();
    }
  });

  it('stop a paged run whole: its count and its page both end before their connections close', async () => {
    // A page runs its count and its rows side by side. Closing the connection of one still running
    // left a worker thread locked for good: after the pool's four, nothing of DuckDB ran again, and
    // the process could not exit. Each run here is stopped in that step, eight times over.
    const slow = makeEngine({ STUDIO_QUERY_TIMEOUT_SECONDS: '0.3', STUDIO_MAX_QUERIES_PER_TENANT: '8' });
    try {
      const runaway = demo('SELECT i FROM range(10000000000) t(i) WHERE hash(i) % 7 = 1', { shape: 'page', limit: 10 });
      for (let round = 0; round < 8; round += 1) {
        expect(await codeOf(slow.run(runaway))).toBe('query_timeout');
      }
      expect((await slow.run(demo('SELECT 5 AS five'))).rows).toEqual([[5]]);
    } finally {
      await slow.close();
    }
  }, 60_000);

  it('answer 429 beyond the per-tenant concurrency limit when waiting is off, and cancel on abort', async () => {
    const small = makeEngine({ STUDIO_MAX_QUERIES_PER_TENANT: '1', STUDIO_QUEUE_WAIT_SECONDS: '0' });
    try {
      const controller = new AbortController();
      const scope = { tenantId: 'tenant-a' };
      const long = small.run({
        ...demo('SELECT count(*) FROM range(10000000000) t(i) WHERE hash(i) % 7 = 1'),
        scope,
        signal: controller.signal,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await codeOf(small.run({ ...demo('SELECT 2 AS two'), scope }))).toBe('too_many_queries');
      // Another tenant is not held back.
      expect((await small.run({ ...demo('SELECT 3 AS three'), scope: { tenantId: 'tenant-b' } })).rows).toEqual([[3]]);
      const started = Date.now();
      controller.abort();
      expect(await codeOf(long)).toBe('query_refused');
      expect(Date.now() - started).toBeLessThan(3_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await small.run({ ...demo('SELECT 4 AS four'), scope })).rows).toEqual([[4]]);
    } finally {
      await small.close();
    }
  });

  it('let a query wait its turn for a busy tenant, and 429 past the wait', async () => {
    const small = makeEngine({ STUDIO_MAX_QUERIES_PER_TENANT: '1', STUDIO_QUEUE_WAIT_SECONDS: '1' });
    try {
      const scope = { tenantId: 'tenant-q' };
      // One slot, three queries at once: with waiting off two would be 429s; here each takes its turn.
      const runs = ['a', 'b', 'c'].map((name, index) =>
        small.run({ ...demo(`SELECT ${index} AS ${name}, count(*) FROM range(3000000)`), scope }),
      );
      const results = await Promise.all(runs);
      expect(results.map((result) => result.rows[0]![0])).toEqual([0, 1, 2]);

      // A query holding the slot past the wait: the one behind it is answered 429.
      const controller = new AbortController();
      const long = small.run({
        ...demo('SELECT count(*) FROM range(10000000000) t(i) WHERE hash(i) % 7 = 1'),
        scope,
        signal: controller.signal,
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await codeOf(small.run({ ...demo('SELECT 9 AS nine'), scope }))).toBe('too_many_queries');
      controller.abort();
      expect(await codeOf(long)).toBe('query_refused');
      expect((await small.run({ ...demo('SELECT 10 AS ten'), scope })).rows).toEqual([[10]]);
    } finally {
      await small.close();
    }
  }, 60_000);
});
