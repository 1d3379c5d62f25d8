import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors.js';
import { createStudioEngine, type RunRequest, type StudioEngine } from './engine.js';

const DEMO_ROWS = 20_000;
const noTenant = { tenantId: null };
/** A logger that writes nothing (Fastify's own, without a destination). */
const silent = Fastify({ logger: false }).log;

/** The engine's answer to a run, or the code of the AppError it threw. */
async function outcome(engine: StudioEngine, request: Partial<RunRequest> & { sql: string }) {
  try {
    return await engine.run({ scope: noTenant, source: 'demo', params: {}, shape: 'capped', ...request });
  } catch (error) {
    if (error instanceof AppError) return { refused: error.errorCode, detail: error.detail };
    throw error;
  }
}

describe('Studio engine on the demo source (STUDIO-RUN-1)', () => {
  let folder: string;
  let engine: StudioEngine;
  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'studio-engine-'));
    engine = createStudioEngine({
      config: {
        folder,
        demoRows: DEMO_ROWS,
        queryTimeoutMs: 2_000,
        maxCappedRows: 1_000,
        maxConcurrentPerTenant: 2,
        memoryLimit: '512MB',
        threads: 2,
      },
      log: silent,
    });
  }, 120_000);
  afterAll(async () => {
    await engine.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('builds the demo data set on first use, deterministic, and lists its tables with their columns', async () => {
    const tables = await engine.listTables(noTenant, 'demo');
    expect(tables.map((table) => table.name).sort()).toEqual([
      'billing_codes',
      'fee_schedule',
      'hospital_charges',
      'localities',
      'rates',
    ]);
    const rates = tables.find((table) => table.name === 'rates')!;
    expect(rates.columns).toContainEqual({ name: 'negotiated_rate', type: 'DOUBLE' });
    expect(rates.columns.map((column) => column.name)).toEqual([
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
    const count = await engine.run({
      scope: noTenant,
      source: 'demo',
      sql: 'SELECT count(*) AS n, round(sum(negotiated_rate), 2) AS total FROM rates',
      params: {},
      shape: 'capped',
    });
    expect(count.rows[0]![0]).toBe(DEMO_ROWS);
    // The same rows on every machine: a checksum of the generated rates.
    expect(typeof count.rows[0]![1]).toBe('number');
    const again = mkdtempSync(path.join(tmpdir(), 'studio-engine-again-'));
    const second = createStudioEngine({
      config: {
        folder: again,
        demoRows: DEMO_ROWS,
        queryTimeoutMs: 2_000,
        maxCappedRows: 10,
        maxConcurrentPerTenant: 2,
        memoryLimit: '512MB',
        threads: 1,
      },
      log: silent,
    });
    try {
      const other = await second.run({
        scope: noTenant,
        source: 'demo',
        sql: 'SELECT count(*) AS n, round(sum(negotiated_rate), 2) AS total FROM rates',
        params: {},
        shape: 'capped',
      });
      expect(other.rows).toEqual(count.rows);
    } finally {
      await second.close();
      rmSync(again, { recursive: true, force: true });
    }
  }, 120_000);

  it('binds :name parameters as values, never as SQL text', async () => {
    const result = await engine.run({
      scope: noTenant,
      source: 'demo',
      sql: "SELECT payer, median(negotiated_rate) AS median_rate FROM rates WHERE billing_code = :code AND description <> ':code' GROUP BY payer ORDER BY payer",
      params: { code: '99213' },
      shape: 'capped',
    });
    expect(result.columns).toEqual([
      { name: 'payer', type: 'VARCHAR' },
      { name: 'median_rate', type: 'DOUBLE' },
    ]);
    expect(result.rows).toHaveLength(12);
    const hostile = await engine.run({
      scope: noTenant,
      source: 'demo',
      sql: 'SELECT count(*) AS n FROM rates WHERE billing_code = :code',
      params: { code: "99213' OR '1'='1" },
      shape: 'capped',
    });
    expect(hostile.rows).toEqual([[0]]);
  });

  it('pages a table on the server with an exact count and the requested sort', async () => {
    const sql = 'SELECT payer, billing_code, negotiated_rate FROM rates WHERE billing_code = :code';
    const first = await engine.run({
      scope: noTenant,
      source: 'demo',
      sql,
      params: { code: '99213' },
      shape: 'page',
      skip: 0,
      limit: 5,
      sort: [{ column: 'negotiated_rate', direction: 'desc' }],
    });
    expect(first.rows).toHaveLength(5);
    expect(first.count).toBeGreaterThan(5);
    const rates = first.rows.map((row) => row[2] as number);
    expect([...rates].sort((a, b) => b - a)).toEqual(rates);

    const last = await engine.run({
      scope: noTenant,
      source: 'demo',
      sql,
      params: { code: '99213' },
      shape: 'page',
      skip: first.count - 2,
      limit: 5,
    });
    expect(last.rows).toHaveLength(2);
    const past = await engine.run({
      scope: noTenant,
      source: 'demo',
      sql,
      params: { code: '99213' },
      shape: 'page',
      skip: first.count + 100,
      limit: 5,
    });
    expect(past.rows).toEqual([]);
    expect(past.count).toBe(first.count);

    expect(
      await outcome(engine, {
        sql,
        params: { code: '99213' },
        shape: 'page',
        sort: [{ column: 'password', direction: 'asc' }],
      }),
    ).toMatchObject({ refused: 'query_refused' });
  });

  it('caps the rows of a chart or KPI query and says to aggregate', async () => {
    const answer = await outcome(engine, { sql: 'SELECT * FROM rates' });
    expect(answer).toMatchObject({ refused: 'result_too_large' });
    expect(JSON.stringify(answer)).toContain('aggregate');
  });

  it('reuses a cached result and runs identical queries in flight once', async () => {
    const request: RunRequest = {
      scope: noTenant,
      source: 'demo',
      sql: 'SELECT billing_code, avg(negotiated_rate) AS mean FROM rates GROUP BY billing_code',
      params: {},
      shape: 'capped',
      cacheKey: 'report:1:block',
      cacheTtlSeconds: 60,
    };
    const first = await engine.run(request);
    expect(first.cached).toBe(false);
    const second = await engine.run(request);
    expect(second.cached).toBe(true);
    expect(second.rows).toEqual(first.rows);
  });

  it('stops a runaway query at its time limit, and the next query answers normally', async () => {
    const started = performance.now();
    expect(
      await outcome(engine, {
        sql: 'SELECT count(*) AS n FROM rates a, rates b, rates c WHERE a.negotiated_rate + b.negotiated_rate > c.negotiated_rate',
      }),
    ).toMatchObject({ refused: 'query_timeout' });
    expect(performance.now() - started).toBeLessThan(10_000);
    const next = await outcome(engine, { sql: 'SELECT count(*) AS n FROM billing_codes' });
    expect(next).toMatchObject({ rows: [[32]] });
  });

  it('cancels a query when its client goes away', async () => {
    const controller = new AbortController();
    const pending = outcome(engine, {
      sql: 'SELECT count(*) AS n FROM rates a, rates b WHERE a.negotiated_rate * b.negotiated_rate > 1e12',
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 200);
    expect(await pending).toMatchObject({ refused: 'query_refused', detail: 'The query was cancelled' });
  });
});

/**
 * Every kind of statement and call the engine must refuse before anything runs (STUDIO-SQL-1).
 * Each is refused with `query_refused`; none reaches outside the source's own tables.
 */
describe('Studio engine refuses hostile SQL (STUDIO-SQL-1)', () => {
  let folder: string;
  let engine: StudioEngine;
  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'studio-hostile-'));
    engine = createStudioEngine({
      config: {
        folder,
        demoRows: 1_000,
        queryTimeoutMs: 2_000,
        maxCappedRows: 100,
        maxConcurrentPerTenant: 2,
        memoryLimit: '256MB',
        threads: 1,
      },
      log: silent,
    });
  });
  afterAll(async () => {
    await engine.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const refused: [string, string][] = [
    ['a write', "INSERT INTO rates (payer) VALUES ('x')"],
    ['an update', "UPDATE rates SET payer = 'x'"],
    ['a delete', 'DELETE FROM rates'],
    ['DDL', 'CREATE TABLE stolen AS SELECT * FROM rates'],
    ['a drop', 'DROP TABLE rates'],
    ['COPY out', "COPY rates TO '/tmp/stolen.csv'"],
    ['COPY in', "COPY rates FROM '/etc/passwd'"],
    ['ATTACH', "ATTACH '/tmp/other.duckdb' AS other"],
    ['INSTALL', 'INSTALL httpfs'],
    ['LOAD', 'LOAD httpfs'],
    ['SET', 'SET enable_external_access = true'],
    ['PRAGMA', 'PRAGMA database_list'],
    ['two statements', 'SELECT 1 AS a; SELECT 2 AS b'],
    ['a write after a read', 'SELECT 1 AS a; DROP TABLE rates'],
    ['read_csv', "SELECT * FROM read_csv('/etc/passwd')"],
    ['read_csv_auto', "SELECT * FROM read_csv_auto('/etc/passwd')"],
    ['read_text', "SELECT * FROM read_text('/etc/passwd')"],
    ['read_parquet', "SELECT * FROM read_parquet('/tmp/x.parquet')"],
    ['a file path as a table', "SELECT * FROM '/etc/passwd'"],
    ['glob', "SELECT * FROM glob('/*')"],
    ['getenv', "SELECT getenv('HOME') AS home"],
    ['current_setting', "SELECT current_setting('memory_limit') AS m"],
    ['duckdb_settings', 'SELECT * FROM duckdb_settings()'],
    ['a system view', 'SELECT * FROM information_schema.tables'],
    ['a catalog view', 'SELECT * FROM duckdb_tables'],
    ['another catalog', 'SELECT * FROM other.main.rates'],
    ['a function hidden in a subquery', "SELECT (SELECT getenv('HOME')) AS h FROM rates"],
    ['a function hidden in a CTE', "WITH x AS (SELECT getenv('HOME') AS h) SELECT * FROM x"],
    ['a function in ORDER BY', "SELECT payer FROM rates ORDER BY getenv('HOME')"],
    ['a schema-qualified function', 'SELECT main.lower(payer) FROM rates'],
    ['httpfs reading', "SELECT * FROM 'https://example.com/data.csv'"],
    ['DuckDB placeholders', 'SELECT * FROM rates WHERE payer = $1'],
    ['a missing parameter', 'SELECT * FROM rates WHERE payer = :payer'],
  ];

  for (const [what, sql] of refused) {
    it(`refuses ${what}`, async () => {
      expect(await outcome(engine, { sql, shape: 'capped' }), sql).toMatchObject({ refused: 'query_refused' });
    });
  }

  it('leaves the demo data untouched and the configuration locked after all of them', async () => {
    expect(await outcome(engine, { sql: 'SELECT count(*) AS n FROM rates' })).toMatchObject({ rows: [[1_000]] });
  });
});
