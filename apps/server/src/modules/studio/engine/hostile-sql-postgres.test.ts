import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTenantDatabases, type TenantDatabase } from '../../../../test/tenant-databases.js';
import { loadConfig } from '../../../config.js';
import { AppError } from '../../../lib/errors.js';
import { createStudioEngine, type StudioEngine } from './engine.js';

// Issue 31 item 6 for the `tenant` source: every statement below is refused by PostgreSQL's own
// parser (libpg-query) before the tenant's database is touched at all, and the data is unchanged.

let database: TenantDatabase;
let pool: pg.Pool;
let engine: StudioEngine;
/** How many times the engine reached the tenant's database. */
let reached = 0;
const scope = { tenantId: '00000000-0000-4000-8000-000000000001', sealedDburl: 'sealed' };

beforeAll(async () => {
  [database] = (await startTenantDatabases(1)) as [TenantDatabase];
  await database.exec("CREATE TABLE sales (id int, region text); INSERT INTO sales VALUES (1, 'north'), (2, 'south');");
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  engine = createStudioEngine({
    config: loadConfig({ ENVIRONMENT: 'local', SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789' }),
    log: Fastify({ logger: false }).log,
    // The real pool of a real database; the tenants service adds only the URL's host check.
    tenantDatabases: {
      use: (_tenantId, _sealed, work) => {
        reached += 1;
        return work(pool);
      },
    },
  });
}, 120_000);

afterAll(async () => {
  await engine?.close();
  await pool?.end();
  await database?.close();
});

const REFUSED: [string, string][] = [
  ['an insert', "INSERT INTO sales VALUES (3, 'x')"],
  ['an update', "UPDATE sales SET region = 'x'"],
  ['a delete', 'DELETE FROM sales'],
  ['a write in a CTE', 'WITH d AS (DELETE FROM sales RETURNING *) SELECT * FROM d'],
  ['DDL', 'CREATE TABLE t AS SELECT 1'],
  ['SELECT INTO', 'SELECT * INTO copy_of_sales FROM sales'],
  ['DROP', 'DROP TABLE sales'],
  ['TRUNCATE', 'TRUNCATE sales'],
  ['COPY out', "COPY sales TO '/tmp/sales.csv'"],
  ['COPY to a program', "COPY sales TO PROGRAM 'id'"],
  ['COPY in', "COPY sales FROM '/etc/passwd'"],
  ['SET', 'SET statement_timeout = 0'],
  ['SET in a transaction', 'SET TRANSACTION READ WRITE'],
  ['RESET', 'RESET ALL'],
  ['BEGIN', 'BEGIN'],
  ['COMMIT', 'COMMIT'],
  ['LOAD', "LOAD 'plpgsql'"],
  ['CREATE EXTENSION', 'CREATE EXTENSION dblink'],
  ['DO', 'DO $$ BEGIN PERFORM 1; END $$'],
  ['CALL', 'CALL p()'],
  ['EXPLAIN ANALYZE', 'EXPLAIN ANALYZE SELECT 1'],
  ['LOCK', 'LOCK TABLE sales'],
  ['FOR UPDATE', 'SELECT * FROM sales FOR UPDATE'],
  ['LISTEN', 'LISTEN x'],
  ['PREPARE', 'PREPARE p AS SELECT 1'],
  ['two statements', 'SELECT 1; SELECT 2'],
  ['a read followed by a write', 'SELECT 1; DROP TABLE sales'],
  ['pg_read_file', "SELECT pg_read_file('/etc/passwd')"],
  ['pg_ls_dir', "SELECT pg_ls_dir('/')"],
  ['lo_import', "SELECT lo_import('/etc/passwd')"],
  ['dblink', "SELECT * FROM dblink('host=x', 'select 1') AS t(a int)"],
  ['current_setting', "SELECT current_setting('data_directory')"],
  ['set_config', "SELECT set_config('statement_timeout', '0', false)"],
  ['pg_sleep', 'SELECT pg_sleep(100)'],
  ['pg_terminate_backend', 'SELECT pg_terminate_backend(1)'],
  ['query_to_xml (SQL from a string)', "SELECT query_to_xml('select 1', true, true, '')"],
  ['a schema-qualified function', 'SELECT public.anything(1)'],
  ['a pg_catalog function off the list', "SELECT pg_catalog.pg_read_file('/etc/passwd')"],
  ['a table function off the list', "SELECT * FROM pg_ls_dir('/')"],
  ['a system catalog', 'SELECT * FROM pg_catalog.pg_authid'],
  ['a system view', 'SELECT * FROM pg_stat_activity'],
  ['information_schema', 'SELECT * FROM information_schema.tables'],
  ['another database', 'SELECT * FROM other.public.sales'],
  ['TABLESAMPLE', 'SELECT * FROM sales TABLESAMPLE SYSTEM (10)'],
  ['XML functions', "SELECT xmlparse(document '<a/>')"],
  ['a positional parameter $1', 'SELECT * FROM sales WHERE region = $1'],
  ['a $name parameter', 'SELECT * FROM sales WHERE region = $region'],
  ['a parameter without a value', 'SELECT * FROM sales WHERE region = :region'],
  ['an unclosed string', "SELECT 'abc"],
  ['not SQL', 'this is not sql'],
  ['an empty query', '   '],
  ['a NUL character', 'SELECT 1\0'],
];

describe('hostile SQL on a tenant source (PostgreSQL)', () => {
  it.each(REFUSED)('refuses %s before the database is reached', async (_name, sql) => {
    const before = reached;
    let caught: unknown;
    try {
      await engine.run({ scope, source: 'tenant', sql, params: {}, shape: 'capped' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).errorCode).toBe('query_refused');
    expect(reached).toBe(before);
    const count = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM sales');
    expect(count.rows[0]?.n).toBe(2);
  });

  it('admits reads with allowed functions, the grammar-written ones included', async () => {
    const result = await engine.run({
      scope,
      source: 'tenant',
      sql: `WITH s AS (SELECT * FROM sales) SELECT upper(region) AS r, extract(year FROM now()) > 2000 AS y,
              substring(region FROM 1 FOR 1) AS f, trim(region) AS t, count(*) OVER () AS n, g
            FROM s, generate_series(1, 1) AS g WHERE region = :region`,
      params: { region: 'north' },
      shape: 'capped',
    });
    expect(result.rows).toEqual([['NORTH', true, 'n', 'north', 1, 1]]);
  });

  it('runs read-only even if a write reached the database: the transaction refuses it', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN TRANSACTION READ ONLY');
      await expect(client.query("INSERT INTO sales VALUES (9, 'x')")).rejects.toMatchObject({ code: '25006' });
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
