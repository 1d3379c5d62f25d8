import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.js';
import { AppError } from '../../../lib/errors.js';
import { ensureDemoDatabase } from './demo-data.js';
import { openHardened } from './duckdb-database.js';
import { createStudioEngine, type StudioEngine } from './engine.js';
import { createExtractLoader, extractFile, extractsDir, type ExtractLoader } from './extract-files.js';
import { createExtractStorage, extractKey } from './extract-storage.js';

// Issue 31 item 6: every statement below is refused with query_refused before anything runs, and
// nothing outside the source's own tables is read.

const ROWS = 5_000;
let dir: string;
let secretFile: string;
let engine: StudioEngine;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'studio-hostile-'));
  secretFile = path.join(dir, 'secret.csv');
  await writeFile(secretFile, 'secret\nthe-secret-value\n');
  engine = createStudioEngine({
    config: loadConfig({
      ENVIRONMENT: 'local',
      SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
      DATA_DIR: dir,
      STUDIO_DEMO_ROWS: String(ROWS),
    }),
    log: Fastify({ logger: false }).log,
  });
  // Built before the cases run, so each case is measured against a source that exists.
  expect(
    (await engine.run({ scope: { tenantId: null }, source: 'demo', sql: 'SELECT 1', params: {}, shape: 'capped' }))
      .rows,
  ).toEqual([[1]]);
}, 60_000);

afterAll(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

const REFUSED: [string, string][] = [
  ['a write', "INSERT INTO rates (payer) VALUES ('x')"],
  ['an update', "UPDATE rates SET payer = 'x'"],
  ['a delete', 'DELETE FROM rates'],
  ['DDL', 'CREATE TABLE t AS SELECT 1'],
  ['DROP', 'DROP TABLE rates'],
  ['ALTER', 'ALTER TABLE rates ADD COLUMN x INT'],
  ['COPY out', "COPY rates TO '/tmp/rates.csv'"],
  ['COPY in', "COPY rates FROM '/etc/passwd'"],
  ['ATTACH', "ATTACH '/tmp/other.duckdb' AS other"],
  ['DETACH', 'DETACH other'],
  ['INSTALL', 'INSTALL httpfs'],
  ['LOAD', 'LOAD httpfs'],
  ['SET', 'SET enable_external_access = true'],
  ['RESET', 'RESET memory_limit'],
  ['PRAGMA', 'PRAGMA database_list'],
  ['CALL', 'CALL pragma_version()'],
  ['EXPLAIN', 'EXPLAIN SELECT 1'],
  ['EXPORT DATABASE', "EXPORT DATABASE '/tmp/x'"],
  ['two statements', 'SELECT 1; SELECT 2'],
  ['a read followed by a write', 'SELECT 1; DROP TABLE rates'],
  ['read_csv', "SELECT * FROM read_csv('/etc/passwd')"],
  ['read_csv of a file in the data folder', `SELECT * FROM read_csv('SECRET')`],
  ['read_csv_auto', "SELECT * FROM read_csv_auto('/etc/passwd')"],
  ['read_text', "SELECT * FROM read_text('/etc/passwd')"],
  ['read_blob', "SELECT * FROM read_blob('/etc/passwd')"],
  ['read_parquet', "SELECT * FROM read_parquet('/tmp/x.parquet')"],
  ['read_json', "SELECT * FROM read_json('/tmp/x.json')"],
  ['a file named as a table', "SELECT * FROM '/etc/passwd'"],
  ['a CSV file named as a table', `SELECT * FROM 'SECRET'`],
  ['glob', "SELECT * FROM glob('/*')"],
  ['getenv', "SELECT getenv('HOME')"],
  ['current_setting', "SELECT current_setting('temp_directory')"],
  ['getvariable', "SELECT getvariable('x')"],
  ['duckdb_settings()', 'SELECT * FROM duckdb_settings()'],
  ['duckdb_databases()', 'SELECT * FROM duckdb_databases()'],
  ['a system view', 'SELECT * FROM duckdb_tables'],
  ['information_schema', 'SELECT * FROM information_schema.tables'],
  ['pg_catalog', 'SELECT * FROM pg_catalog.pg_class'],
  ['another catalog', 'SELECT * FROM system.main.rates'],
  ['another schema', 'SELECT * FROM other.rates'],
  ['a table the source lacks', 'SELECT * FROM users'],
  ['query()', "SELECT * FROM query('SELECT 1')"],
  ['query_table()', "SELECT * FROM query_table('rates')"],
  ['SHOW', 'SHOW TABLES'],
  ['DESCRIBE', 'DESCRIBE rates'],
  ['SUMMARIZE', 'SUMMARIZE rates'],
  ['PIVOT', 'PIVOT rates ON payer USING count(*)'],
  ['a schema-qualified function', 'SELECT main.getenv(1)'],
  ['pg_read_file', "SELECT pg_read_file('/etc/passwd')"],
  ['dblink', "SELECT * FROM dblink('host=x', 'select 1')"],
  ['lo_import', "SELECT lo_import('/etc/passwd')"],
  ['http via httpfs', "SELECT * FROM read_csv('https://example.com/x.csv')"],
  ['sqlite_scan', "SELECT * FROM sqlite_scan('/tmp/x.db', 't')"],
  ['postgres_scan', "SELECT * FROM postgres_scan('host=x', 'public', 't')"],
  ['a positional parameter ?', 'SELECT * FROM rates WHERE payer = ?'],
  ['a positional parameter $1', 'SELECT * FROM rates WHERE payer = $1'],
  ['a $name parameter', 'SELECT * FROM rates WHERE payer = $payer'],
  ['a parameter without a value', 'SELECT * FROM rates WHERE payer = :payer'],
  ['an unclosed string', "SELECT 'abc"],
  ['an unclosed comment', 'SELECT 1 /* never closed'],
  ['not SQL', 'this is not sql'],
  ['an empty query', '   '],
  ['a NUL character', 'SELECT 1\0'],
  ['a huge query', `SELECT ${'1 + '.repeat(40_000)}1`],
];

describe('hostile SQL', () => {
  it.each(REFUSED)('refuses %s', async (_name, sql) => {
    const text = sql.replaceAll('SECRET', secretFile);
    let caught: unknown;
    try {
      await engine.run({ scope: { tenantId: null }, source: 'demo', sql: text, params: {}, shape: 'capped' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).errorCode).toBe('query_refused');
    expect(JSON.stringify((caught as AppError).detail)).not.toContain('the-secret-value');
    // The data is as it was: no write got through.
    const count = await engine.run({
      scope: { tenantId: null },
      source: 'demo',
      sql: 'SELECT count(*) FROM rates',
      params: {},
      shape: 'capped',
    });
    expect(count.rows).toEqual([[ROWS]]);
  });

  it('refuses a sort by a column that is not in the result, even one that names SQL', async () => {
    for (const column of ['npi', 'payer; DROP TABLE rates', '"payer"']) {
      await expect(
        engine.run({
          scope: { tenantId: null },
          source: 'demo',
          sql: 'SELECT payer FROM rates',
          params: {},
          shape: 'page',
          sort: [{ column, direction: 'asc' }],
        }),
      ).rejects.toMatchObject({ errorCode: 'query_refused' });
    }
  });

  it('behind the parser, the database itself refuses files, settings and extensions', async () => {
    // Defence in depth: even a statement the guard missed meets a hardened, locked database.
    const file = await ensureDemoDatabase(path.join(dir, 'studio'), ROWS);
    const instance = await openHardened(file, { readOnly: true, memoryLimit: '256MB', threads: 1 });
    const connection = await instance.connect();
    try {
      for (const sql of [
        `SELECT * FROM read_csv('${secretFile}')`,
        "SELECT * FROM read_text('/etc/passwd')",
        "SELECT * FROM glob('/*')",
        'SET enable_external_access = true',
        'SET lock_configuration = false',
        "SET memory_limit = '100GB'",
        "ATTACH '/tmp/other.duckdb'",
        'INSTALL httpfs',
        "COPY rates TO '/tmp/rates.csv'",
        'CREATE TABLE t AS SELECT 1',
      ]) {
        await expect(connection.run(sql), sql).rejects.toThrow();
      }
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});

/**
 * The extract source (STUDIO-SOURCE-4): tenant B's SQL meets a database that holds B's extracts
 * only. Tenant A's table name, its attached file, its path on disk, the demo tables and every
 * refused statement above are all refused, and A's secret never appears in an answer.
 */
describe('hostile SQL on the extract source: one tenant cannot reach another', () => {
  const tenantA = '00000000-0000-4000-8000-00000000000a';
  const tenantB = '00000000-0000-4000-8000-00000000000b';
  const extractA = '00000000-0000-4000-8000-0000000000a1';
  const extractB = '00000000-0000-4000-8000-0000000000b1';
  let extractDir: string;
  let extractEngine: StudioEngine;
  let loader: ExtractLoader;
  const catalog: Record<
    string,
    { id: string; name: string; key: string; columns: { name: string; type: string }[] }[]
  > = {
    [tenantA]: [
      {
        id: extractA,
        name: 'secret_a',
        key: extractKey(tenantA, extractA, null),
        columns: [{ name: 'secret', type: 'VARCHAR' }],
      },
    ],
    [tenantB]: [
      {
        id: extractB,
        name: 'own_b',
        key: extractKey(tenantB, extractB, null),
        columns: [{ name: 'n', type: 'BIGINT' }],
      },
    ],
  };

  beforeAll(async () => {
    extractDir = await mkdtemp(path.join(tmpdir(), 'studio-hostile-extracts-'));
    const config = loadConfig({
      ENVIRONMENT: 'local',
      SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
      DATA_DIR: extractDir,
      STUDIO_DEMO_ROWS: String(ROWS),
    });
    loader = createExtractLoader({ studioDir: config.studio.dir });
    for (const [tenantId, extractId, text] of [
      [tenantA, extractA, 'secret\ntenant-a-secret-value\n'],
      [tenantB, extractB, 'n\n1\n2\n3\n'],
    ] as const) {
      const folder = extractsDir(config.studio.dir, tenantId);
      await mkdir(folder, { recursive: true });
      const source = path.join(folder, 'upload.csv');
      await writeFile(source, text);
      await loader.load(source, 'csv', extractFile(config.studio.dir, tenantId, extractId), {
        timeoutMs: config.studio.extractConvertTimeoutMs,
      });
      await rm(source);
    }
    extractEngine = createStudioEngine({
      config,
      log: Fastify({ logger: false }).log,
      extracts: { list: (tenantId) => Promise.resolve(catalog[tenantId] ?? []) },
      storage: createExtractStorage({ config: config.studio, onFailure: () => undefined }),
    });
  }, 60_000);

  afterAll(async () => {
    await extractEngine.close();
    loader.close();
    await rm(extractDir, { recursive: true, force: true });
  });

  const runAsB = (sql: string) =>
    extractEngine.run({ scope: { tenantId: tenantB }, source: 'extract', sql, params: {}, shape: 'capped' });

  const CROSS_TENANT: [string, string][] = [
    ["A's table by name", 'SELECT * FROM secret_a'],
    ["A's table in main", 'SELECT * FROM main.secret_a'],
    ['an attached extract by catalog', 'SELECT * FROM extract_0.main.data'],
    ['an attached extract by schema', 'SELECT * FROM extract_0.data'],
    ["B's own table by its catalog", 'SELECT * FROM memory.main.own_b'],
    ["A's DuckDB file named as a table", "SELECT * FROM 'A_FILE'"],
    ["A's DuckDB file attached", "ATTACH 'A_FILE' AS a"],
    ["A's folder read as CSV", "SELECT * FROM read_csv('A_DIR/*')"],
    ['the demo rates', 'SELECT * FROM rates'],
    ['the list of attached databases', 'SELECT * FROM duckdb_databases()'],
    ['the list of tables', 'SELECT * FROM duckdb_tables()'],
    ['the list of views', 'SELECT * FROM duckdb_views()'],
    ...REFUSED,
  ];

  it.each(CROSS_TENANT)('refuses %s', async (_name, sql) => {
    const fileA = extractFile(path.join(extractDir, 'studio'), tenantA, extractA);
    const text = sql
      .replaceAll('A_FILE', fileA)
      .replaceAll('A_DIR', path.dirname(fileA))
      .replaceAll('SECRET', secretFile);
    let caught: unknown;
    try {
      await runAsB(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).errorCode).toBe('query_refused');
    expect(JSON.stringify((caught as AppError).detail)).not.toContain('tenant-a-secret-value');
    // B's own data is as it was, and still reads.
    expect((await runAsB('SELECT count(*), sum(n) FROM own_b')).rows).toEqual([[3, 6]]);
  });

  it("reads each tenant's own table, and only there", async () => {
    const a = await extractEngine.run({
      scope: { tenantId: tenantA },
      source: 'extract',
      sql: 'SELECT secret FROM secret_a',
      params: {},
      shape: 'capped',
    });
    expect(a.rows).toEqual([['tenant-a-secret-value']]);
    // The same text again, from B: its parse is remembered from A's run, its tables are checked anew.
    await expect(runAsB('SELECT secret FROM secret_a')).rejects.toMatchObject({ errorCode: 'query_refused' });
    await expect(
      extractEngine.run({ scope: { tenantId: null }, source: 'extract', sql: 'SELECT 1', params: {}, shape: 'capped' }),
    ).rejects.toMatchObject({ errorCode: 'source_not_found' });
    expect(await extractEngine.listTables({ tenantId: tenantB }, 'extract')).toEqual([
      { name: 'own_b', columns: [{ name: 'n', type: 'BIGINT' }] },
    ]);
  });
});
