import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { ReportPublic, StudioExtract, StudioExtracts, TenantPublic } from '@dataplatform/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studioExtracts } from '../../db/schema/index.js';
import { createTestContext, createUser, type TestContext, type TestUser } from '../../../test/harness.js';
import { s3Prefix, startS3Server, type TestS3 } from '../../../test/s3.js';
import { createTenant, tenantHeaders } from '../../../test/tenant-fixtures.js';

/*
 * Extracts in an S3-compatible object store (issue 61, decision 060), against a real one on loopback
 * (s3rver): two instances on one database, each with a data folder of its own as on two machines.
 */

let s3: TestS3;
let prefix: string;
/** The instance uploads go through, and the other one. */
let first: TestContext;
let second: TestContext;
let admin: TestUser;
let tenant: TenantPublic;
const folders: string[] = [];
/** The first instance's log lines (warnings and up). */
const logLines: string[] = [];

function studioFolder(): string {
  const dir = path.join(tmpdir(), `extracts-s3-${randomUUID()}`);
  folders.push(dir);
  return dir;
}

function salesCsv(lines: number): string {
  const rows = ['region,units'];
  for (let i = 0; i < lines; i += 1) rows.push(`${['north', 'south', 'east'][i % 3]},${i % 7}`);
  return `${rows.join('\n')}\n`;
}

function upload(on: TestContext, tenantId: string, name: string, body: string | PassThrough) {
  return on.app.inject({
    method: 'POST',
    url: `/api/v1/studio/extracts?name=${name}`,
    headers: tenantHeaders(admin, tenantId, { 'content-type': 'text/csv' }),
    payload: body,
  });
}

function preview(on: TestContext, tenantId: string, sql: string, source = 'extract') {
  return on.app.inject({
    method: 'POST',
    url: '/api/v1/studio/preview',
    headers: tenantHeaders(admin, tenantId),
    payload: {
      definition: `title: T\nsource: ${source}\nblocks:\n  - id: b\n    kpi: { sql: "${sql}", value: v }\n`,
      block: 'b',
    },
  });
}

/** The files in an instance's local cache (`{tenant}/{key}`), half-written ones aside. */
async function cached(on: TestContext): Promise<string[]> {
  const dir = path.join(on.config.studio.dir, 'cache');
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.duckdb')).sort();
}

async function rowsOf(tenantId: string) {
  return first.database.db.select().from(studioExtracts).where(eq(studioExtracts.tenantId, tenantId));
}

async function readiness(on: TestContext) {
  const response = await on.app.inject({ url: '/readyz?details=1' });
  return response.json<{ status: string; studio_storage: Record<string, unknown> }>();
}

beforeAll(async () => {
  s3 = await startS3Server();
  prefix = s3Prefix();
  first = await createTestContext({
    env: { ...s3.env(prefix), LOG_LEVEL: 'warn' },
    studio: { dir: studioFolder() },
    logStream: { write: (line) => logLines.push(line) },
  });
  second = await createTestContext({
    env: s3.env(prefix),
    studio: { dir: studioFolder() },
    sharedDatabase: first.database,
  });
  admin = await createUser(first, { isSuperuser: true });
  tenant = await createTenant(first, admin);
}, 60_000);

afterAll(async () => {
  await second?.close();
  await first?.close();
  await s3?.close();
  for (const dir of folders) await rm(dir, { recursive: true, force: true });
});

describe('extracts in an S3-compatible store, read by every instance', () => {
  it('uploads through one instance; the other lists, runs, exports and deletes it, each with its own data folder', async () => {
    const uploaded = await upload(first, tenant.id, 'sales', salesCsv(3_000));
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const extract = uploaded.json<StudioExtract>();
    // One object, named by the extract and its content; the uploading instance kept its copy.
    const keys = await s3.keys(`${prefix}/`);
    expect(keys).toEqual([
      expect.stringMatching(new RegExp(`^${prefix}/${tenant.id}/${extract.id}\\.[0-9a-f]{64}\\.duckdb$`)),
    ]);
    expect(await cached(first)).toHaveLength(1);
    expect(await cached(second)).toEqual([]);

    const listed = await second.app.inject({
      url: '/api/v1/studio/extracts',
      headers: tenantHeaders(admin, tenant.id),
    });
    expect(listed.json<StudioExtracts>()).toMatchObject({ count: 1, data: [{ id: extract.id, name: 'sales' }] });

    const total = await preview(second, tenant.id, 'SELECT sum(units) AS v FROM sales');
    expect(total.statusCode, total.body).toBe(200);
    let expected = 0;
    for (let i = 0; i < 3_000; i += 1) expected += i % 7;
    expect(total.json<{ rows: unknown[][] }>().rows).toEqual([[expected]]);
    // Fetched once into the second instance's cache.
    expect(await cached(second)).toEqual([path.join(tenant.id, path.basename(keys[0]!))]);

    const report = await second.app.inject({
      method: 'POST',
      url: '/api/v1/studio/reports',
      headers: tenantHeaders(admin, tenant.id),
      payload: {
        definition:
          'title: S\nsource: extract\nblocks:\n  - id: all\n    table: { sql: "SELECT region, units FROM sales" }\n',
      },
    });
    expect(report.statusCode, report.body).toBe(201);
    const exported = await second.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${report.json<ReportPublic>().id}/export`,
      headers: tenantHeaders(admin, tenant.id),
      payload: { block: 'all' },
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.body.split('\r\n').filter((line) => line !== '')).toHaveLength(3_001);

    const deleted = await second.app.inject({
      method: 'DELETE',
      url: `/api/v1/studio/extracts/${extract.id}`,
      headers: tenantHeaders(admin, tenant.id),
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await s3.keys(`${prefix}/`)).toEqual([]);
    // Each instance drops its copy the next time it opens the tenant's extracts (the second's open
    // database held it until then).
    for (const instance of [second, first]) {
      const gone = await preview(instance, tenant.id, 'SELECT count(*) AS v FROM sales');
      expect(gone.json()).toMatchObject({ code: 'query_refused' });
      await expect.poll(() => cached(instance)).toEqual([]);
    }

    expect((await readiness(second)).studio_storage).toMatchObject({ kind: 's3', status: 'ok' });
  }, 60_000);

  it('keeps no row and no object of an upload cut off halfway', async () => {
    const address = await first.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const body = salesCsv(20_000);
      await new Promise<void>((resolve) => {
        const request = http.request(`${address}/api/v1/studio/extracts?name=cut`, {
          method: 'POST',
          headers: tenantHeaders(admin, tenant.id, {
            'content-type': 'text/csv',
            'content-length': String(body.length),
          }),
        });
        request.on('error', () => resolve());
        request.on('close', () => resolve());
        request.write(body.slice(0, body.length / 2), () => setTimeout(() => request.destroy(), 100));
      });
      await expect
        .poll(() => readdir(path.join(first.config.studio.dir, 'uploads', tenant.id)).catch(() => []), {
          timeout: 10_000,
        })
        .toEqual([]);
    } finally {
      await new Promise<void>((resolve) => first.app.server.close(() => resolve()));
    }
    expect(await rowsOf(tenant.id)).toEqual([]);
    expect(await s3.keys(`${prefix}/`)).toEqual([]);
  }, 30_000);

  it('answers 503 source_unavailable while the store is away during an upload, keeps nothing, and takes the next one', async () => {
    const body = new PassThrough();
    const pending = upload(first, tenant.id, 'during_outage', body);
    body.write(salesCsv(1_000));
    await s3.stop();
    body.end();
    const response = await pending;
    try {
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toEqual({
        detail: "The tenant's extracts are not available now.",
        code: 'source_unavailable',
      });
      expect(response.headers['retry-after']).toBe('5');
      const ready = await readiness(first);
      expect(ready.status).toBe('ok');
      expect(ready.studio_storage).toMatchObject({ kind: 's3', status: 'unavailable' });
      expect(String(ready.studio_storage.last_error)).toContain('ECONNREFUSED');
      // The cause is in the log, the credentials are not.
      const logged = logLines.map((line) => JSON.parse(line) as { msg: string; cause?: string });
      expect(logged).toContainEqual(
        expect.objectContaining({ msg: 'the extract file could not be stored in the object store' }),
      );
      expect(logged.find((line) => line.cause !== undefined)?.cause).toContain('ECONNREFUSED');
      expect(logLines.join('\n')).not.toContain(process.env.AWS_SECRET_ACCESS_KEY);
    } finally {
      await s3.start();
    }
    expect(await rowsOf(tenant.id)).toEqual([]);
    expect(await s3.keys(`${prefix}/`)).toEqual([]);
    const again = await upload(first, tenant.id, 'during_outage', salesCsv(10));
    expect(again.statusCode, again.body).toBe(201);
    expect(await s3.keys(`${prefix}/`)).toHaveLength(1);
    expect((await readiness(first)).studio_storage).toMatchObject({ status: 'ok' });
    expect((await readiness(first)).studio_storage).not.toHaveProperty('last_error');
    await second.app.inject({
      method: 'DELETE',
      url: `/api/v1/studio/extracts/${again.json<StudioExtract>().id}`,
      headers: tenantHeaders(admin, tenant.id),
    });
  }, 60_000);

  it('answers 503 source_unavailable to a query while the store is away, serves the demo meanwhile, and answers once it is back', async () => {
    const other = await createTenant(first, admin);
    expect((await upload(first, other.id, 'sales', salesCsv(500))).statusCode).toBe(201);
    await s3.stop();
    try {
      // The second instance has no copy yet: it needs the store.
      const refused = await preview(second, other.id, 'SELECT count(*) AS v FROM sales');
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json()).toMatchObject({ code: 'source_unavailable' });
      const demo = await preview(second, other.id, 'SELECT count(*) AS v FROM rates', 'demo');
      expect(demo.statusCode, demo.body).toBe(200);
      expect((await readiness(second)).studio_storage).toMatchObject({ status: 'unavailable' });
    } finally {
      await s3.start();
    }
    const answered = await preview(second, other.id, 'SELECT count(*) AS v FROM sales');
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json<{ rows: unknown[][] }>().rows).toEqual([[500]]);
  }, 60_000);

  it('takes one of two uploads of the same name at once and answers the other 409, leaving one object', async () => {
    const racing = await createTenant(first, admin);
    const answers = await Promise.all([
      upload(first, racing.id, 'twin', salesCsv(5_000)),
      upload(second, racing.id, 'twin', salesCsv(5_000)),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)!.json()).toMatchObject({ code: 'extract_name_taken' });
    expect(await rowsOf(racing.id)).toHaveLength(1);
    expect(await s3.keys(`${prefix}/${racing.id}/`)).toHaveLength(1);
  }, 60_000);

  it('answers 503 source_unavailable, not a 500, for an object deleted behind the product’s back', async () => {
    const victim = await createTenant(first, admin);
    const uploaded = await upload(first, victim.id, 'sales', salesCsv(100));
    expect(uploaded.statusCode).toBe(201);
    const [key] = await s3.keys(`${prefix}/${victim.id}/`);
    await s3.deleteObject(key!);
    const response = await preview(second, victim.id, 'SELECT count(*) AS v FROM sales');
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json()).toMatchObject({ code: 'source_unavailable' });
    expect(String((await readiness(second)).studio_storage.last_error)).toContain('NoSuchKey');
    // It can still be deleted.
    const deleted = await second.app.inject({
      method: 'DELETE',
      url: `/api/v1/studio/extracts/${uploaded.json<StudioExtract>().id}`,
      headers: tenantHeaders(admin, victim.id),
    });
    expect(deleted.statusCode).toBe(204);
  }, 60_000);
});

describe('a store that refuses the credentials, and a deleted tenant', () => {
  it('answers 503 source_unavailable when the store denies access, with the cause logged and no key in it', async () => {
    const owner = await createTenant(first, admin);
    expect((await upload(first, owner.id, 'sales', salesCsv(100))).statusCode).toBe(201);
    const lines: string[] = [];
    const real = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    // The SDK reads the environment on its first request: this instance signs with a key the store
    // does not know (s3rver checks the key id).
    process.env.AWS_ACCESS_KEY_ID = 'AKIAUNKNOWNKEY000000';
    process.env.AWS_SECRET_ACCESS_KEY = 'not-the-secret-key-0123456789';
    const denied = await createTestContext({
      env: { ...s3.env(prefix), LOG_LEVEL: 'warn' },
      studio: { dir: studioFolder() },
      sharedDatabase: first.database,
      logStream: { write: (line) => lines.push(line) },
    });
    try {
      const response = await preview(denied, owner.id, 'SELECT count(*) AS v FROM sales');
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toMatchObject({ code: 'source_unavailable' });
      const ready = await readiness(denied);
      expect(ready.studio_storage).toMatchObject({ status: 'unavailable' });
      expect(String(ready.studio_storage.last_error)).toMatch(/InvalidAccessKeyId|Forbidden|AccessDenied|403/);
      expect(lines.join('\n')).toContain('InvalidAccessKeyId');
      expect(lines.join('\n')).not.toContain('not-the-secret-key');
    } finally {
      process.env.AWS_ACCESS_KEY_ID = real.id;
      process.env.AWS_SECRET_ACCESS_KEY = real.secret;
      await denied.close();
    }
  }, 60_000);

  it("deleting a tenant deletes its objects, and no other tenant's", async () => {
    const doomed = await createTenant(first, admin);
    const kept = await createTenant(first, admin);
    for (const owner of [doomed, kept]) {
      expect((await upload(first, owner.id, 'sales', salesCsv(50))).statusCode).toBe(201);
    }
    const deleted = await second.app.inject({
      method: 'DELETE',
      url: `/api/v1/tenants/${doomed.id}`,
      headers: admin.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await s3.keys(`${prefix}/${doomed.id}/`)).toEqual([]);
    expect(await s3.keys(`${prefix}/${kept.id}/`)).toHaveLength(1);
  }, 60_000);
});

describe('the local cache of an instance (STUDIO_CACHE_MAX_BYTES)', () => {
  it('evicts the least recently used file, never one a running query holds, answers 503 when nothing can go, and keeps its files across a restart', async () => {
    const a = await createTenant(first, admin);
    const b = await createTenant(first, admin);
    for (const tenantId of [a.id, b.id])
      expect((await upload(first, tenantId, 'sales', salesCsv(2_000))).statusCode).toBe(201);
    // Room for one extract's file, not two (the uploading instance kept copies of both).
    const copies = await cached(first);
    const sizes = await Promise.all(
      copies.map(async (name) => (await stat(path.join(first.config.studio.dir, 'cache', name))).size),
    );
    const small = await createTestContext({
      env: s3.env(prefix),
      studio: { dir: studioFolder(), cacheMaxBytes: Math.floor(Math.max(...sizes) * 1.5) },
      sharedDatabase: first.database,
    });
    try {
      const count = (tenantId: string) => preview(small, tenantId, 'SELECT count(*) AS v FROM sales');
      expect((await count(a.id)).statusCode).toBe(200);
      expect(await cached(small)).toEqual([expect.stringContaining(a.id)]);
      // B's file needs A's room: A's database is idle, so it closes and A's file goes.
      expect((await count(b.id)).statusCode).toBe(200);
      expect(await cached(small)).toEqual([expect.stringContaining(b.id)]);

      // A download of B still streaming holds B's file: A cannot have its room.
      const stream = await small.app.services.studioEngine.exportRows({
        scope: { tenantId: b.id },
        source: 'extract',
        sql: 'SELECT * FROM sales',
        params: {},
      });
      try {
        const held = await count(a.id);
        expect(held.statusCode, held.body).toBe(503);
        expect(held.json()).toMatchObject({ code: 'source_unavailable' });
        expect(await cached(small)).toEqual([expect.stringContaining(b.id)]);
      } finally {
        stream.close();
      }
      // Once it ends, the file may go.
      await expect.poll(async () => (await count(a.id)).statusCode, { timeout: 10_000 }).toBe(200);
      expect(await cached(small)).toEqual([expect.stringContaining(a.id)]);
    } finally {
      await small.close();
    }

    // A restart keeps the cache: the files found in its folder are served, even while the store is away.
    const folder = studioFolder();
    const before = await createTestContext({
      env: s3.env(prefix),
      studio: { dir: folder },
      sharedDatabase: first.database,
    });
    try {
      expect((await preview(before, a.id, 'SELECT count(*) AS v FROM sales')).statusCode).toBe(200);
    } finally {
      await before.close();
    }
    const after = await createTestContext({
      env: s3.env(prefix),
      studio: { dir: folder },
      sharedDatabase: first.database,
    });
    await s3.stop();
    try {
      const served = await preview(after, a.id, 'SELECT count(*) AS v FROM sales');
      expect(served.statusCode, served.body).toBe(200);
      expect(served.json<{ rows: unknown[][] }>().rows).toEqual([[2_000]]);
    } finally {
      await s3.start();
      await after.close();
    }

    // A cache folder that cannot be written (here a file stands where it should be) is a 503 too.
    const broken = studioFolder();
    await mkdir(broken, { recursive: true });
    await writeFile(path.join(broken, 'cache'), '');
    const unwritable = await createTestContext({
      env: s3.env(prefix),
      studio: { dir: broken },
      sharedDatabase: first.database,
    });
    try {
      const refused = await preview(unwritable, a.id, 'SELECT count(*) AS v FROM sales');
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json()).toMatchObject({ code: 'source_unavailable' });
      expect(String((await readiness(unwritable)).studio_storage.last_error)).toContain('ENOTDIR');
      const demo = await preview(unwritable, a.id, 'SELECT count(*) AS v FROM rates', 'demo');
      expect(demo.statusCode, demo.body).toBe(200);
    } finally {
      await unwritable.close();
    }

    // A file larger than the whole cache is a 503 with the reason, never a 500.
    const tiny = await createTestContext({
      env: s3.env(prefix),
      studio: { dir: studioFolder(), cacheMaxBytes: 1_000 },
      sharedDatabase: first.database,
    });
    try {
      const refused = await preview(tiny, a.id, 'SELECT count(*) AS v FROM sales');
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json()).toMatchObject({ code: 'source_unavailable' });
      expect(String((await readiness(tiny)).studio_storage.last_error)).toContain('larger than the cache');
      expect(await cached(tiny)).toEqual([]);
    } finally {
      await tiny.close();
    }
  }, 90_000);
});
