import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.js';
import { AppError } from '../../../lib/errors.js';
import { EXTRACT_TABLE } from './extract-files.js';
import { createExtractStorage } from './extract-storage.js';
import { createInstancePool, EXTRACT_DATABASES_MAX, type InstancePool } from './instances.js';
import type { ExtractCatalog } from './types.js';

const silentLog = Fastify({ logger: false }).log;
let dir: string;
let pool: InstancePool;
/** Each tenant's extracts, as the app database would list them. */
const catalog = new Map<string, Awaited<ReturnType<ExtractCatalog['list']>>>();
const forgotten = new Set<string>();

/** Writes an extract file (its table holding `rows` numbers) where the folder store keeps `key`. */
async function writeExtract(key: string, rows: number): Promise<void> {
  const file = path.join(dir, 'studio', 'extracts', ...key.split('/'));
  await mkdir(path.dirname(file), { recursive: true });
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  await connection.run(`CREATE TABLE ${EXTRACT_TABLE} AS SELECT range AS n FROM range(${rows})`);
  connection.closeSync();
  instance.closeSync();
}

async function addExtract(tenantId: string, id: string, name: string, rows: number): Promise<void> {
  const key = `${tenantId}/${id}.duckdb`;
  await writeExtract(key, rows);
  catalog.set(tenantId, [...(catalog.get(tenantId) ?? []), { id, name, key, columns: [] }]);
}

async function count(tenantId: string, table: string): Promise<number> {
  const source = await pool.source({ source: 'extract', scope: { tenantId } });
  try {
    const connection = await source.instance.connect();
    try {
      const reader = await connection.runAndReadAll(`SELECT count(*) FROM "${table}"`);
      return Number(reader.getRows()[0]?.[0]);
    } finally {
      connection.closeSync();
    }
  } finally {
    source.release();
  }
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'opened';
  } catch (error) {
    if (error instanceof AppError) return error.errorCode;
    throw error;
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'studio-instances-'));
  const config = loadConfig({
    ENVIRONMENT: 'local',
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    DATA_DIR: dir,
    STUDIO_DEMO_ROWS: '1000',
  });
  pool = createInstancePool({
    settings: config.studio,
    log: silentLog,
    extracts: { list: (tenantId) => Promise.resolve(catalog.get(tenantId) ?? []) },
    storage: createExtractStorage({ config: config.studio, onFailure: () => undefined }),
    forgotten,
  });
}, 60_000);

afterAll(async () => {
  await pool.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the instance pool', () => {
  it('opens the demo once, shared by everyone, and lists its tables', async () => {
    const a = await pool.source({ source: 'demo', scope: { tenantId: null } });
    const b = await pool.source({ source: 'demo', scope: { tenantId: 'someone' } });
    expect(a.instance).toBe(b.instance);
    expect(a.version).toBe('demo:1000');
    expect(a.tenantId).toBeUndefined();
    expect(a.tables.has('rates')).toBe(true);
    expect((await pool.demoTables()).map((table) => table.name)).toContain('fee_schedule');
  });

  it('opens a tenant’s extracts as its tables, and a new database once the set of extracts changes', async () => {
    await addExtract('t1', 'a', 'Sales', 3);
    const first = await pool.source({ source: 'extract', scope: { tenantId: 't1' } });
    expect([...first.tables]).toEqual(['sales']);
    expect(first.version).toBe('extract:t1:a');
    expect(first.tenantId).toBe('t1');
    const unhold = first.hold();
    first.release();
    await addExtract('t1', 'b', 'Costs', 5);
    expect(await count('t1', 'Costs')).toBe(5);
    // The retired database stays open while a query holds it.
    const connection = await first.instance.connect();
    expect(Number((await connection.runAndReadAll('SELECT count(*) FROM sales')).getRows()[0]?.[0])).toBe(3);
    connection.closeSync();
    unhold();
    expect(pool.holds('t1')).toBe(true);
  });

  it('refuses what the scope has not: another kind, no tenant, a forgotten tenant', async () => {
    expect(await codeOf(pool.source({ source: 'tenant', scope: { tenantId: 't1' } }))).toBe('source_not_found');
    expect(await codeOf(pool.source({ source: 'extract', scope: { tenantId: null } }))).toBe('source_not_found');
    await addExtract('gone', 'c', 'Old', 1);
    forgotten.add('gone');
    expect(await codeOf(pool.source({ source: 'extract', scope: { tenantId: 'gone' } }))).toBe('source_not_found');
    expect(pool.holds('gone')).toBe(false);
  });

  it('keeps at most EXTRACT_DATABASES_MAX open, closing the least recently used, and forgets on demand', async () => {
    const tenants = Array.from({ length: EXTRACT_DATABASES_MAX + 1 }, (_, index) => `lru-${index}`);
    for (const tenantId of tenants) await addExtract(tenantId, 'x', 'T', 1);
    for (const tenantId of tenants) expect(await count(tenantId, 'T')).toBe(1);
    expect(pool.holds(tenants[0]!)).toBe(false);
    expect(pool.holds(tenants.at(-1)!)).toBe(true);
    pool.forget(tenants.at(-1)!);
    expect(pool.holds(tenants.at(-1)!)).toBe(false);
    // Opened again on the next use.
    expect(await count(tenants[0]!, 'T')).toBe(1);
  }, 60_000);
});
