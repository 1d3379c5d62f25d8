import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.js';
import { createAdmission, type Admission } from './admission.js';
import { createDuckdbPreparer } from './duckdb-queries.js';
import { createExport } from './export.js';
import { createInstancePool, type InstancePool } from './instances.js';
import { createTenantDatabase } from './tenant-database.js';
import type { ExportRequest } from './types.js';
import { createWorkUnderWay } from './work-under-way.js';

const log = Fastify({ logger: false }).log;
let dir: string;
let instances: InstancePool;
let admission: Admission;
let downloads: ReturnType<typeof createExport>;

const demo = (sql: string, extra: Partial<ExportRequest> = {}): ExportRequest => ({
  scope: { tenantId: 't1' },
  source: 'demo',
  sql,
  params: {},
  ...extra,
});

async function readAll(chunks: AsyncIterable<unknown[][]>): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for await (const chunk of chunks) rows.push(...chunk);
  return rows;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'studio-export-'));
  const config = loadConfig({
    ENVIRONMENT: 'local',
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    DATA_DIR: dir,
    STUDIO_DEMO_ROWS: '1000',
    STUDIO_EXPORT_MAX_ROWS: '500',
  });
  instances = createInstancePool({ settings: config.studio, log, forgotten: new Set() });
  admission = createAdmission({ slots: 1, waitMs: 0, waitingPerSlot: 8 });
  downloads = createExport({
    settings: config.studio,
    admission,
    instances,
    tenant: createTenantDatabase({ log }),
    prepareDuckdb: createDuckdbPreparer(),
    work: createWorkUnderWay(),
  });
}, 60_000);

afterAll(async () => {
  await instances.close();
  await rm(dir, { recursive: true, force: true });
});

describe('downloads', () => {
  it('stream every row in the requested order, holding the tenant’s slot until the end', async () => {
    const stream = await downloads.exportRows(
      demo('SELECT DISTINCT billing_code FROM rates', { sort: [{ column: 'billing_code', direction: 'asc' }] }),
    );
    expect(stream.columns).toEqual([{ name: 'billing_code', type: 'VARCHAR' }]);
    expect(admission.load('t1').running).toBe(1);
    const rows = await readAll(stream.chunks);
    expect(rows).toHaveLength(stream.count);
    expect(rows.map((row) => String(row[0]))).toEqual(rows.map((row) => String(row[0])).sort());
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(admission.load('t1').running).toBe(0);
  });

  it('refuse a result over the cap before the first row, and free the slot', async () => {
    await expect(downloads.exportRows(demo('SELECT * FROM rates'))).rejects.toMatchObject({
      errorCode: 'result_too_large',
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(admission.load('t1').running).toBe(0);
  });

  it('free the slot when closed before the end', async () => {
    const stream = await downloads.exportRows(demo('SELECT payer FROM rates LIMIT 400'));
    stream.close();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(admission.load('t1').running).toBe(0);
  });
});
