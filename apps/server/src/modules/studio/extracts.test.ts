import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DuckDBInstance } from '@duckdb/node-api';
import {
  PERMISSIONS,
  type AuditEntries,
  type ReportPublic,
  type StudioExtract,
  type StudioExtracts,
  type TenantPublic,
} from '@dataplatform/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../../../test/authz-fixtures.js';
import { eq } from 'drizzle-orm';
import { studioExtracts } from '../../db/schema/index.js';
import { createUser, useTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { listExtracts, salesCsv, uploadExtract } from '../../../test/extract-fixtures.js';
import { createTenant, tenantHeaders } from '../../../test/tenant-fixtures.js';
import { extractsDir } from './engine/extract-files.js';
import { sha256Of } from './engine/extract-storage.js';

const MAX_BYTES = 4 * 1024 * 1024;
const { ctx, admin } = useTestContext({ env: { STUDIO_EXTRACT_MAX_BYTES: String(MAX_BYTES) } });

let tenantA: TenantPublic;
let tenantB: TenantPublic;
/** Members of A: one holding sources:write (and reports:write), one only reading. */
let writerA: TestUser;
let readerA: TestUser;
/** A member of B holding sources:write. */
let writerB: TestUser;
let scratch: string;

/** An upload to `on` (the file's app unless another is given). */
const upload = (
  user: TestUser,
  tenantId: string | undefined,
  name: string,
  body: Buffer | string,
  contentType = 'text/csv',
  on: TestContext = ctx,
) => uploadExtract(on, user, tenantId, name, body, contentType);

const list = (user: TestUser, tenantId: string, on: TestContext = ctx) => listExtracts(on, user, tenantId);

function remove(user: TestUser, tenantId: string | undefined, id: string) {
  return ctx.app.inject({
    method: 'DELETE',
    url: `/api/v1/studio/extracts/${id}`,
    headers: tenantHeaders(user, tenantId),
  });
}

async function preview(user: TestUser, tenantId: string, sql: string, kind: 'table' | 'kpi' = 'table') {
  const block = kind === 'table' ? `table: { sql: "${sql}", page_size: 100 }` : `kpi: { sql: "${sql}", value: v }`;
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/studio/preview',
    headers: tenantHeaders(user, tenantId),
    payload: { definition: `title: T\nsource: extract\nblocks:\n  - id: b\n    ${block}\n`, block: 'b' },
  });
}

async function parquetOf(sql: string): Promise<Buffer> {
  const file = path.join(scratch, `${randomUUID()}.parquet`);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(`COPY (${sql}) TO '${file}' (FORMAT parquet)`);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return readFile(file);
}

/** The files in tenant's extract folder (uploads in progress would show as `.part`). */
async function filesOf(tenantId: string): Promise<string[]> {
  return readdir(extractsDir(ctx.config.studio.dir, tenantId)).catch(() => []);
}

async function auditOf(extractId: string): Promise<AuditEntries> {
  const response = await ctx.app.inject({
    url: `/api/v1/audit/?target_type=extract&target_id=${extractId}`,
    headers: admin.headers,
  });
  return response.json<AuditEntries>();
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'extracts-test-'));
  writerA = await createUser(ctx);
  readerA = await createUser(ctx);
  writerB = await createUser(ctx);
  await createRole(ctx, {
    grants: [PERMISSIONS.sourcesWrite, PERMISSIONS.reportsWrite],
    userIds: [writerA.id, writerB.id],
  });
  tenantA = await createTenant(ctx, admin, { members: [writerA, readerA] });
  tenantB = await createTenant(ctx, admin, { members: [writerB] });
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('Studio extracts (STUDIO-SOURCE-2..6)', () => {
  it('uploads a CSV, typed by DuckDB, lists it, runs a report on it, and deletes it, each change audited', async () => {
    const response = await upload(writerA, tenantA.id, 'sales', salesCsv(1_000));
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<StudioExtract>();
    expect(created).toMatchObject({
      name: 'sales',
      source_id: 'extract',
      format: 'csv',
      rows: 1_000,
      bytes: Buffer.byteLength(salesCsv(1_000)),
      tables: [
        {
          name: 'sales',
          columns: [
            { name: 'region', type: 'VARCHAR' },
            { name: 'units', type: 'BIGINT' },
            { name: 'price', type: 'DOUBLE' },
            { name: 'sold_on', type: 'DATE' },
          ],
        },
      ],
    });
    // Named by its content: `{id}.{sha256 of the file}.duckdb`.
    const [stored] = await filesOf(tenantA.id);
    expect(await filesOf(tenantA.id)).toEqual([
      expect.stringMatching(new RegExp(`^${created.id}\\.[0-9a-f]{64}\\.duckdb$`)),
    ]);
    expect(stored!.split('.')[1]).toBe(
      await sha256Of(path.join(extractsDir(ctx.config.studio.dir, tenantA.id), stored!)),
    );

    const listed = await list(readerA, tenantA.id);
    expect(listed.statusCode).toBe(200);
    expect(listed.json<StudioExtracts>()).toMatchObject({ count: 1, data: [{ id: created.id, name: 'sales' }] });

    const sources = await ctx.app.inject({
      url: '/api/v1/studio/sources',
      headers: tenantHeaders(readerA, tenantA.id),
    });
    expect(sources.json<{ data: { id: string }[] }>().data.map((source) => source.id)).toEqual(['demo', 'extract']);
    const tables = await ctx.app.inject({
      url: '/api/v1/studio/sources/extract/tables',
      headers: tenantHeaders(readerA, tenantA.id),
    });
    expect(tables.statusCode).toBe(200);
    expect(tables.json()).toEqual({ data: created.tables, count: 1 });

    // A saved report on the extract source, run by a reader of the tenant.
    const report = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/studio/reports',
      headers: tenantHeaders(writerA, tenantA.id),
      payload: {
        definition: `title: Sales
source: extract
blocks:
  - id: total
    kpi: { sql: "SELECT sum(units) AS v FROM sales WHERE region = :region", value: v }
  - id: rows
    table: { sql: "SELECT region, units FROM sales", page_size: 10 }
params:
  region: { type: text, default: north }
`,
      },
    });
    expect(report.statusCode, report.body).toBe(201);
    const reportId = report.json<ReportPublic>().id;
    const kpi = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${reportId}/run`,
      headers: tenantHeaders(readerA, tenantA.id),
      payload: { block: 'total', params: { region: 'south' } },
    });
    expect(kpi.statusCode, kpi.body).toBe(200);
    let expected = 0;
    for (let i = 0; i < 1_000; i += 1) if (i % 3 === 1) expected += i % 7;
    expect(kpi.json<{ rows: unknown[][] }>().rows).toEqual([[expected]]);
    const page = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${reportId}/run`,
      headers: tenantHeaders(readerA, tenantA.id),
      payload: { block: 'rows', skip: 995, limit: 10, sort: [{ column: 'units', direction: 'desc' }] },
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json<{ count: number; rows: unknown[][] }>()).toMatchObject({ count: 1_000 });
    expect(page.json<{ rows: unknown[][] }>().rows).toHaveLength(5);

    // The same name again is a 409: an upload never replaces an extract.
    const again = await upload(writerA, tenantA.id, 'sales', salesCsv(10));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'extract_name_taken' });

    const deleted = await remove(writerA, tenantA.id, created.id);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await filesOf(tenantA.id)).toEqual([]);
    expect((await list(readerA, tenantA.id)).json<StudioExtracts>()).toEqual({ data: [], count: 0 });
    // The table is gone from the source: the report's query now names a table it does not have.
    const after = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${reportId}/run`,
      headers: tenantHeaders(readerA, tenantA.id),
      payload: { block: 'total' },
    });
    expect(after.statusCode).toBe(422);
    expect(after.json()).toMatchObject({ code: 'query_refused' });
    expect((await remove(writerA, tenantA.id, created.id)).statusCode).toBe(404);

    const entries = (await auditOf(created.id)).data;
    expect(entries.map((entry) => entry.action).sort()).toEqual(['extract.create', 'extract.delete']);
    expect(entries.every((entry) => entry.actor_id === writerA.id)).toBe(true);
  });

  it('uploads a Parquet file made by DuckDB, with its types kept', async () => {
    const file = await parquetOf(
      "SELECT i AS id, 'item ' || i AS label, i * 1.25 AS amount, DATE '2026-01-01' + i::INTEGER AS day FROM range(5000) t(i)",
    );
    const response = await upload(writerA, tenantA.id, 'items', file, 'application/vnd.apache.parquet');
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<StudioExtract>();
    expect(created).toMatchObject({ format: 'parquet', rows: 5_000, bytes: file.length });
    expect(created.tables[0]!.columns.map((column) => column.name)).toEqual(['id', 'label', 'amount', 'day']);
    const run = await preview(writerA, tenantA.id, 'SELECT count(*) AS v, max(id) AS m FROM items', 'kpi');
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json<{ rows: unknown[][] }>().rows).toEqual([[5000, 4999]]);
    expect((await remove(writerA, tenantA.id, created.id)).statusCode).toBe(204);
  });

  it("downloads a report's table on an extract as CSV, across several of DuckDB's chunks (STUDIO-VIEW-4)", async () => {
    const file = await parquetOf('SELECT i AS id, i % 10 AS bucket FROM range(5000) t(i)');
    const uploaded = await upload(writerA, tenantA.id, 'numbers', file, 'application/vnd.apache.parquet');
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/studio/reports',
      headers: tenantHeaders(writerA, tenantA.id),
      payload: {
        definition:
          'title: Numbers\nsource: extract\nblocks:\n  - id: all\n    table: { sql: "SELECT id, bucket FROM numbers" }\n',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const exported = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${created.json<ReportPublic>().id}/export`,
      headers: tenantHeaders(readerA, tenantA.id),
      payload: { block: 'all', sort: [{ column: 'id', direction: 'desc' }] },
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const lines = exported.body.split('\r\n').filter((line) => line !== '');
    // 5 000 rows: more than two of DuckDB's 2 048-row chunks, in the order asked.
    expect(lines).toHaveLength(5_001);
    expect(lines.slice(0, 3)).toEqual(['id,bucket', '4999,9', '4998,8']);
    expect(lines.at(-1)).toBe('0,0');
    expect((await remove(writerA, tenantA.id, uploaded.json<StudioExtract>().id)).statusCode).toBe(204);
  });

  it('uploads over a real connection, where the body is the socket-bound request stream', async () => {
    // inject() hands the handler a plain stream; a listening server hands it the IncomingMessage,
    // whose object graph a body-walking hook once followed for ever (nul-guard).
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const response = await fetch(`${address}/api/v1/studio/extracts?name=over_http`, {
        method: 'POST',
        headers: tenantHeaders(writerA, tenantA.id, { 'content-type': 'text/csv' }),
        body: salesCsv(1_000),
        signal: AbortSignal.timeout(60_000),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      const created = (await response.json()) as StudioExtract;
      expect(created).toMatchObject({ name: 'over_http', rows: 1_000 });
      expect((await remove(writerA, tenantA.id, created.id)).statusCode).toBe(204);
    } finally {
      await new Promise<void>((resolve) => ctx.app.server.close(() => resolve()));
    }
  }, 90_000);

  it('refuses a file over STUDIO_EXTRACT_MAX_BYTES with 413, keeping nothing', async () => {
    const big = Buffer.alloc(MAX_BYTES + 1024, 'a,b\n1,2\n');
    const response = await upload(writerA, tenantA.id, 'too_big', big);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'extract_too_large' });
    expect(response.json<{ detail: string }>().detail).toContain(String(MAX_BYTES));
    // Sent without a length (chunked), it is cut off once the limit is passed.
    const chunks = [
      Buffer.alloc(MAX_BYTES / 2, 'a,b\n1,2\n'),
      Buffer.alloc(MAX_BYTES / 2, '1,2\n'),
      Buffer.from('3,4\n'),
    ];
    const streamed = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/studio/extracts?name=too_big',
      headers: tenantHeaders(writerA, tenantA.id, { 'content-type': 'text/csv' }),
      payload: Readable.from(chunks),
    });
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json()).toMatchObject({ code: 'extract_too_large' });
    expect(await filesOf(tenantA.id)).toEqual([]);
    expect((await list(writerA, tenantA.id)).json<StudioExtracts>().count).toBe(0);
    // Megabytes through the in-process transport take seconds on a busy machine.
  }, 90_000);

  it('refuses unreadable files with 422 and a clear detail, keeping nothing', async () => {
    const lines = salesCsv(100_000).split('\n');
    lines[90_000] = 'north,"3,1.5,2026-01-01,extra';
    const broken = await upload(writerA, tenantA.id, 'broken', lines.join('\n'));
    expect(broken.statusCode).toBe(422);
    expect(broken.json()).toMatchObject({ code: 'extract_invalid' });
    expect(broken.json<{ detail: string }>().detail).toMatch(/could not be read as CSV.*Line: 90001/);
    expect(broken.json<{ detail: string }>().detail).not.toContain(ctx.config.studio.dir);

    const fake = await upload(writerA, tenantA.id, 'fake', 'PAR1 not really parquet', 'application/vnd.apache.parquet');
    expect(fake.statusCode).toBe(422);
    expect(fake.json<{ detail: string }>().detail).toMatch(/could not be read as Parquet/);

    const parquetAsCsv = await upload(writerA, tenantA.id, 'mislabelled', await parquetOf('SELECT 1 AS x'));
    expect(parquetAsCsv.statusCode).toBe(422);
    expect(parquetAsCsv.json<{ detail: string }>().detail).toContain('Parquet');

    for (const contentType of ['application/json', 'text/plain', 'application/octet-stream']) {
      const wrong = await upload(writerA, tenantA.id, 'wrong', 'a,b\n1,2\n', contentType);
      expect(wrong.statusCode, contentType).toBe(422);
      expect(wrong.json(), contentType).toMatchObject({ code: 'extract_invalid' });
    }
    const empty = await upload(writerA, tenantA.id, 'empty', '');
    expect(empty.statusCode).toBe(422);

    expect(await filesOf(tenantA.id)).toEqual([]);
    expect((await list(writerA, tenantA.id)).json<StudioExtracts>().count).toBe(0);
  }, 90_000);

  it('validates the name: a table name, not a reserved word', async () => {
    for (const name of ['', 'Sales', '1st', 'a-b', 'a b', '../x', 'x'.repeat(64), 'é']) {
      const response = await upload(writerA, tenantA.id, name, 'a\n1\n');
      expect(response.statusCode, name).toBe(422);
      expect(response.json(), name).toMatchObject({ code: 'validation_failed' });
    }
    const reserved = await upload(writerA, tenantA.id, 'select', 'a\n1\n');
    expect(reserved.statusCode).toBe(422);
    expect(reserved.json()).toMatchObject({ code: 'validation_failed', detail: [{ loc: ['query', 'name'] }] });
  });

  it('needs sources:write and a tenant to upload or delete; readers list', async () => {
    const denied = await upload(readerA, tenantA.id, 'nope', 'a\n1\n');
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'permission_denied' });
    const noTenant = await upload(writerA, undefined, 'nope', 'a\n1\n');
    expect(noTenant.statusCode).toBe(400);
    // A tenant the writer does not belong to.
    const outsider = await upload(writerA, tenantB.id, 'nope', 'a\n1\n');
    expect(outsider.statusCode).toBe(403);
    const created = (await upload(writerA, tenantA.id, 'kept', 'a\n1\n')).json<StudioExtract>();
    expect((await remove(readerA, tenantA.id, created.id)).statusCode).toBe(403);
    // A superuser may act in any tenant.
    expect((await list(admin, tenantA.id)).json<StudioExtracts>().count).toBe(1);
    expect((await remove(admin, tenantA.id, created.id)).statusCode).toBe(204);
  });

  it("keeps each tenant to its own extracts: another tenant's table, id and files are out of reach", async () => {
    const secret = await upload(writerA, tenantA.id, 'secret', 'code,value\nclassified,987654321\n');
    expect(secret.statusCode).toBe(201);
    const secretId = secret.json<StudioExtract>().id;
    const own = await upload(writerB, tenantB.id, 'mine', 'x\n1\n');
    expect(own.statusCode).toBe(201);

    // B lists only its own, cannot delete A's (404, as for an id that does not exist).
    expect((await list(writerB, tenantB.id)).json<StudioExtracts>().data.map((e) => e.name)).toEqual(['mine']);
    const cross = await remove(writerB, tenantB.id, secretId);
    expect(cross.statusCode).toBe(404);
    expect(cross.json()).toMatchObject({ code: 'extract_not_found' });
    expect((await remove(writerB, tenantB.id, randomUUID())).json()).toMatchObject({ code: 'extract_not_found' });

    // B's SQL does not see A's table, by name or through the attached files, nor the demo data.
    const hostile = [
      'SELECT * FROM secret',
      'SELECT * FROM main.secret',
      'SELECT * FROM extract_0.main.data',
      'SELECT * FROM extract_1.data',
      'SELECT * FROM rates',
      `SELECT * FROM read_csv('${extractsDir(ctx.config.studio.dir, tenantA.id)}/*')`,
      `SELECT * FROM '${extractsDir(ctx.config.studio.dir, tenantA.id)}/${(await filesOf(tenantA.id)).find((name) => name.startsWith(secretId))}'`,
      'SELECT * FROM duckdb_tables()',
      'SELECT * FROM information_schema.tables',
      "SELECT * FROM glob('/**')",
    ];
    for (const sql of hostile) {
      const response = await preview(writerB, tenantB.id, sql.replaceAll('"', '\\"'));
      expect(response.statusCode, sql).toBe(422);
      expect(response.body, sql).not.toContain('987654321');
      expect(response.body, sql).not.toContain('classified');
    }
    const mine = await preview(writerB, tenantB.id, 'SELECT * FROM mine');
    expect(mine.statusCode, mine.body).toBe(200);

    // A's table is A's: its own query reads it.
    const theirs = await preview(writerA, tenantA.id, 'SELECT value AS v FROM secret', 'kpi');
    expect(theirs.json<{ rows: unknown[][] }>().rows).toEqual([[987654321]]);
    // Without a tenant there is no extract source at all.
    const none = await ctx.app.inject({ url: '/api/v1/studio/sources/extract/tables', headers: writerA.headers });
    expect(none.statusCode).toBe(404);
  });

  it('deleting a tenant deletes its extract files and rows, closes its extract database and drops its cached results, and no other tenant loses any', async () => {
    const engine = ctx.app.services.studioEngine;
    const doomed = await createTenant(ctx, admin, { members: [writerA] });
    const kept = await createTenant(ctx, admin, { members: [writerA] });
    const runs: Record<string, () => Promise<{ cached: boolean; rows: unknown[][] }>> = {};
    for (const tenant of [doomed, kept]) {
      expect((await upload(writerA, tenant.id, 'sales', salesCsv(300))).statusCode).toBe(201);
      const report = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/studio/reports',
        headers: tenantHeaders(writerA, tenant.id),
        payload: {
          definition:
            'title: Units\nsource: extract\ncache: 5m\nblocks:\n  - id: u\n    kpi: { sql: "SELECT sum(units) AS v FROM sales", value: v }\n',
        },
      });
      expect(report.statusCode, report.body).toBe(201);
      runs[tenant.id] = async () => {
        const run = await ctx.app.inject({
          method: 'POST',
          url: `/api/v1/studio/reports/${report.json<ReportPublic>().id}/run`,
          headers: tenantHeaders(writerA, tenant.id),
          payload: { block: 'u' },
        });
        expect(run.statusCode, run.body).toBe(200);
        return run.json<{ cached: boolean; rows: unknown[][] }>();
      };
      expect((await runs[tenant.id]!()).cached).toBe(false);
      expect((await runs[tenant.id]!()).cached).toBe(true);
    }
    expect(await engine.heldFor(doomed.id)).toEqual({ extractDatabase: true, cachedResults: 1 });
    expect(await filesOf(doomed.id)).toHaveLength(1);

    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/tenants/${doomed.id}`,
      headers: admin.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    await expect(stat(extractsDir(ctx.config.studio.dir, doomed.id))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await engine.heldFor(doomed.id)).toEqual({ extractDatabase: false, cachedResults: 0 });
    const rows = await ctx.database.db.select().from(studioExtracts).where(eq(studioExtracts.tenantId, doomed.id));
    expect(rows).toEqual([]);

    // The other tenant keeps its file, its open database and its cached result.
    expect(await filesOf(kept.id)).toHaveLength(1);
    expect(await engine.heldFor(kept.id)).toEqual({ extractDatabase: true, cachedResults: 1 });
    expect(await runs[kept.id]!()).toMatchObject({ cached: true });
  }, 60_000);
});
