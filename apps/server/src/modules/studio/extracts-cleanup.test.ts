import { randomUUID } from 'node:crypto';
import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StudioExtracts } from '@dataplatform/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { listExtracts, salesCsv, uploadExtract } from '../../../test/extract-fixtures.js';
import { createTestContext, createUser, useTestContext } from '../../../test/harness.js';
import { createTenant, tenantHeaders } from '../../../test/tenant-fixtures.js';
import { extractsDir } from './engine/extract-files.js';
import { uploadsDir } from './extracts.service.js';

/*
 * Extract uploads that end badly, each on an app of its own: a client that goes away during the
 * reading, a tenant whose files cannot be removed, a reading past its time limit (STUDIO-SOURCE-6, -8).
 */

describe('an upload whose client goes away, and a tenant whose files cannot be removed', () => {
  const dir = path.join(tmpdir(), `extracts-own-${randomUUID()}`);
  const logLines: string[] = [];
  const own = useTestContext({
    env: { STUDIO_EXTRACT_MAX_BYTES: String(256 * 1024 * 1024), LOG_LEVEL: 'warn' },
    // A data folder of its own (the test below swaps its extracts folder), one thread: a slow reading.
    studio: { dir, duckdbThreads: 1 },
    logStream: { write: (line) => logLines.push(line) },
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const filesIn = (tenantId: string) => readdir(extractsDir(dir, tenantId)).catch(() => [] as string[]);
  /** Uploads being received and read, whatever the store. */
  const uploading = (tenantId: string) => readdir(uploadsDir(dir, tenantId)).catch(() => [] as string[]);

  it('stops the reading in DuckDB when the client disconnects during it, keeping no file and no row', async () => {
    const tenant = await createTenant(own.ctx, own.admin);
    // Tens of megabytes: DuckDB reads them for a good while on one thread.
    const body = salesCsv(2_000_000);
    const address = await own.ctx.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const client = new AbortController();
      const sent = fetch(`${address}/api/v1/studio/extracts?name=abandoned`, {
        method: 'POST',
        headers: tenantHeaders(own.admin, tenant.id, { 'content-type': 'text/csv' }),
        body,
        signal: client.signal,
      });
      sent.catch(() => undefined);
      // The reading has begun once DuckDB has made the extract's file beside the received upload.
      const deadline = Date.now() + 60_000;
      while (!(await uploading(tenant.id)).some((name) => name.endsWith('.duckdb'))) {
        expect(Date.now(), 'the reading never began').toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      client.abort();
      await expect(sent).rejects.toThrow();

      // The staging file and the half-made extract go; no row is ever written.
      while ((await filesIn(tenant.id)).length + (await uploading(tenant.id)).length > 0) {
        const left = [...(await filesIn(tenant.id)), ...(await uploading(tenant.id))];
        expect(Date.now(), `left behind: ${left.join(', ')}`).toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await listExtracts(own.ctx, own.admin, tenant.id)).json<StudioExtracts>()).toEqual({
        data: [],
        count: 0,
      });
      // The loader is free again: the next upload is read and kept.
      const next = await uploadExtract(own.ctx, own.admin, tenant.id, 'abandoned', salesCsv(10));
      expect(next.statusCode, next.body).toBe(201);
    } finally {
      await new Promise<void>((resolve) => own.ctx.app.server.close(() => resolve()));
    }
  }, 120_000);

  it("still deletes a tenant whose extract files cannot be removed, and logs it without the tenant's secrets", async () => {
    const password = 'pa55word-never-logged';
    const tenant = await createTenant(own.ctx, own.admin, {
      dburl: `postgresql://owner:${password}@db.example.test:5432/warehouse`,
    });
    const uploaded = await uploadExtract(own.ctx, own.admin, tenant.id, 'stuck', salesCsv(10));
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    // A file where the extracts folder should be: removing the tenant's folder fails (ENOTDIR).
    const extracts = path.join(dir, 'extracts');
    await rename(extracts, `${extracts}-aside`);
    await writeFile(extracts, '');
    try {
      const deleted = await own.ctx.app.inject({
        method: 'DELETE',
        url: `/api/v1/tenants/${tenant.id}`,
        headers: own.admin.headers,
      });
      expect(deleted.statusCode, deleted.body).toBe(204);
      const gone = await own.ctx.app.inject({ url: `/api/v1/tenants/${tenant.id}`, headers: own.admin.headers });
      expect(gone.statusCode).toBe(404);
    } finally {
      await rm(extracts);
      await rename(`${extracts}-aside`, extracts);
    }
    const logged = logLines.filter((line) => line.includes("a deleted tenant's extract files could not be removed"));
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0]!)).toMatchObject({ level: 40, tenantId: tenant.id });
    expect(logLines.join('\n')).not.toContain(password);
    // What could not be removed is still there to remove by hand, as the log says.
    expect(await filesIn(tenant.id)).toHaveLength(1);
  }, 60_000);
});

describe('the time limit of an upload’s reading (STUDIO_EXTRACT_CONVERT_TIMEOUT_SECONDS)', () => {
  it('stops a reading past it with 422 extract_timeout, keeping no file and no row', async () => {
    // 1 ms: every reading runs past it.
    const timed = await createTestContext({ studio: { extractConvertTimeoutMs: 1 } });
    try {
      const superuser = await createUser(timed, { isSuperuser: true });
      const tenant = await createTenant(timed, superuser);
      const response = await uploadExtract(timed, superuser, tenant.id, 'slow', salesCsv(50_000));
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toEqual({
        detail:
          'The file took longer than 0.001 s to read and was not kept: send a smaller file, or Parquet, which reads faster',
        code: 'extract_timeout',
      });
      expect(await readdir(extractsDir(timed.config.studio.dir, tenant.id)).catch(() => [])).toEqual([]);
      expect((await listExtracts(timed, superuser, tenant.id)).json<StudioExtracts>()).toEqual({ data: [], count: 0 });
    } finally {
      await timed.close();
    }
  }, 60_000);
});
