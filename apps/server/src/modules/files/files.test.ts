import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AUDIT_ACTIONS, fileMessages, type AuditEntries } from '@dataplatform/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../../../test/authz-fixtures.js';
import { createTestContext, createUser, detailOf, type TestContext, type TestUser } from '../../../test/harness.js';
import { loadConfig } from '../../config.js';
import { roles } from '../../db/schema/index.js';
import { insertUserRoles } from '../authz/authz.repository.js';

const GIB = 1024 ** 3;
const SALES = 'region,amount\nnorth,10\nsouth,20\n';
const SECRET = 'the contents of a file outside the folder';

/** Compressible and well over the API's 1 KiB compression threshold. */
const LEDGER = Array.from({ length: 400 }, (_, i) => `${i},entry ${i},${(i * 7) % 100}`).join('\n');

describe('role-gated downloads', () => {
  let ctx: TestContext;
  let workDir: string;
  let admin: TestUser;
  let analyst: TestUser;
  let nobody: TestUser;

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(tmpdir(), 'dp-files-'));
    const filesDir = path.join(workDir, 'files');
    const outside = path.join(workDir, 'outside');
    mkdirSync(filesDir);
    mkdirSync(outside);
    writeFileSync(path.join(filesDir, 'sales_report.csv'), SALES);
    writeFileSync(path.join(filesDir, 'readme'), 'plain');
    writeFileSync(path.join(filesDir, 'ledger.csv'), LEDGER);
    writeFileSync(path.join(filesDir, 'empty.txt'), '');
    writeFileSync(path.join(filesDir, '.hidden'), SECRET);
    mkdirSync(path.join(filesDir, 'folder'));
    writeFileSync(path.join(outside, 'secret.txt'), SECRET);
    symlinkSync(path.join(outside, 'secret.txt'), path.join(filesDir, 'leak.txt'));
    symlinkSync(outside, path.join(filesDir, 'escape'));
    symlinkSync(path.join(filesDir, 'sales_report.csv'), path.join(filesDir, 'alias.csv'));
    // Sparse: a gigabyte of zeros that takes no disk space.
    writeFileSync(path.join(filesDir, 'big.bin'), '');
    truncateSync(path.join(filesDir, 'big.bin'), GIB);

    ctx = await createTestContext({ env: { FILES_DIR: filesDir } });
    admin = await createUser(ctx, { isSuperuser: true });
    analyst = await createUser(ctx);
    nobody = await createUser(ctx);
    for (const name of [
      'sales_report',
      'ledger',
      'alias',
      'leak',
      'escape',
      'folder',
      'missing',
      'big',
      'readme',
      'empty',
    ]) {
      await createRole(ctx, { name: `download_${name}`, userIds: [analyst.id] });
    }
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  function download(url: string, caller: TestUser | undefined, headers: Record<string, string> = {}) {
    return ctx.app.inject({
      method: 'GET',
      url: `/api/v1/files/download/${url}`,
      headers: { ...caller?.headers, ...headers },
    });
  }

  /** Gives `user` the role `download_{name}`, creating it the first time (PostgreSQL text holds no NUL). */
  async function holdDownloadRole(user: TestUser, name: string) {
    if (name.includes('\0')) return;
    const roleName = `download_${name}`;
    const [existing] = await ctx.database.db.select().from(roles).where(eq(roles.name, roleName));
    if (existing) await insertUserRoles(ctx.database.db, user.id, [existing.id], null, new Date());
    else await createRole(ctx, { name: roleName, userIds: [user.id] });
  }

  async function auditEntries(): Promise<AuditEntries> {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/audit/?action=${AUDIT_ACTIONS.fileDownload}&limit=1000`,
      headers: admin.headers,
    });
    return response.json();
  }

  it('defaults the folder to DATA_DIR/files', () => {
    const dataDir = path.join(workDir, 'data');
    expect(loadConfig({ DATA_DIR: dataDir }).filesDir).toBe(path.join(dataDir, 'files'));
    expect(loadConfig({ DATA_DIR: dataDir, FILES_DIR: '/srv/reports' }).filesDir).toBe('/srv/reports');
  });

  it('serves a file to a holder of download_{name}, as an attachment with its extension and type', async () => {
    const response = await download('sales_report', analyst);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(SALES);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="sales_report.csv"; filename*=UTF-8''sales_report.csv`,
    );
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(SALES)));
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  it('sends a file as stored, also to a client that accepts compression', async () => {
    const whole = await download('ledger', analyst, { 'accept-encoding': 'br, gzip' });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.headers['content-length']).toBe(String(LEDGER.length));
    expect(whole.body).toBe(LEDGER);
    const part = await download('ledger', analyst, { 'accept-encoding': 'gzip', range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.body).toBe(LEDGER.slice(100, 200));
  });

  it('serves files without an extension, and empty ones', async () => {
    const plain = await download('readme', analyst);
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe('plain');
    expect(plain.headers['content-type']).toBe('application/octet-stream');
    expect(plain.headers['content-disposition']).toContain('filename="readme"');
    const empty = await download('empty', analyst);
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toBe('');
    expect(empty.headers['content-length']).toBe('0');
    expect(empty.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('answers 401 without a token and 403 without the role', async () => {
    expect((await download('sales_report', undefined)).statusCode).toBe(401);
    const denied = await download('sales_report', nobody);
    expect(denied.statusCode).toBe(403);
    expect(detailOf(denied)).toBe(fileMessages.notAuthorized);
    // A role for another file, or one merely starting the same way, is not enough.
    await createRole(ctx, { name: 'download_sales', userIds: [nobody.id] });
    await createRole(ctx, { name: 'download_sales_report_2024', userIds: [nobody.id] });
    expect((await download('sales_report', nobody)).statusCode).toBe(403);
  });

  it('lets a superuser download any file, and says 404 for files that do not exist', async () => {
    expect((await download('sales_report', admin)).body).toBe(SALES);
    const missing = await download('missing', analyst);
    expect(missing.statusCode).toBe(404);
    expect(detailOf(missing)).toBe(fileMessages.notFound);
    expect((await download('nothing_here', admin)).statusCode).toBe(404);
  });

  it('follows symlinks inside the folder, never out of it, and serves no folders', async () => {
    const alias = await download('alias', analyst);
    expect(alias.statusCode).toBe(200);
    expect(alias.body).toBe(SALES);
    for (const name of ['leak', 'escape', 'folder']) {
      const response = await download(name, admin);
      expect(response.statusCode, name).toBe(404);
      expect(response.body).not.toContain(SECRET);
      expect((await download(name, analyst)).statusCode, name).toBe(404);
    }
  });

  const traversals = [
    '..',
    '.',
    '.hidden',
    '..%2F..%2Fetc%2Fpasswd',
    '..%2Foutside%2Fsecret.txt',
    '%2e%2e%2foutside%2fsecret.txt',
    '%2E%2E',
    '%2e%2e',
    '.%2e',
    '%252e%252e%252foutside%252fsecret.txt',
    '..%5Coutside%5Csecret.txt',
    '%5C..%5Coutside',
    'sales_report%00',
    'sales_report%00.csv',
    '%00',
    '%2Fetc%2Fpasswd',
    '%2F' + encodeURIComponent(path.join(tmpdir(), 'x')),
    'sales_report.csv%2F..',
    'escape%2Fsecret.txt',
    'escape%2Fsecret',
    '%c0%ae%c0%ae%2f',
    '%E2%80%A4%E2%80%A4%2Foutside',
    'sales_report%20',
    'C%3A%5Cwindows%5Cwin.ini',
    '../outside/secret.txt',
    '../../../../etc/passwd',
    'escape/secret',
    '..;/outside',
  ];

  it.each(traversals)('refuses the traversal %s with 400 or 404, whatever roles the caller holds', async (raw) => {
    const decoded = (() => {
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    })();
    const holder = await createUser(ctx);
    await holdDownloadRole(holder, decoded);
    for (const caller of [admin, holder]) {
      const response = await download(raw, caller);
      expect([400, 404], `${raw}: ${response.statusCode} ${response.body}`).toContain(response.statusCode);
      expect(response.body).not.toContain(SECRET);
      expect(response.headers['content-disposition']).toBeUndefined();
    }
  });

  it('says 400 with a clear detail for names that are not plain file names', async () => {
    const response = await download('..%2Fsecret', admin);
    expect(response.statusCode).toBe(400);
    expect(detailOf(response)).toBe(fileMessages.invalidName);
    expect((await download('a'.repeat(201), admin)).statusCode).toBe(400);
  });

  it('honours a Range header', async () => {
    const size = Buffer.byteLength(SALES);
    const middle = await download('sales_report', analyst, { range: 'bytes=7-12' });
    expect(middle.statusCode).toBe(206);
    expect(middle.body).toBe(SALES.slice(7, 13));
    expect(middle.headers['content-range']).toBe(`bytes 7-12/${size}`);
    expect(middle.headers['content-length']).toBe('6');

    const tail = await download('sales_report', analyst, { range: 'bytes=-9' });
    expect(tail.statusCode).toBe(206);
    expect(tail.body).toBe(SALES.slice(-9));
    const open = await download('sales_report', analyst, { range: 'bytes=20-' });
    expect(open.body).toBe(SALES.slice(20));
    const clipped = await download('sales_report', analyst, { range: `bytes=0-${size + 100}` });
    expect(clipped.statusCode).toBe(206);
    expect(clipped.headers['content-range']).toBe(`bytes 0-${size - 1}/${size}`);

    const beyond = await download('sales_report', analyst, { range: `bytes=${size}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${size}`);
    expect(detailOf(beyond)).toBe(fileMessages.rangeNotSatisfiable);

    for (const ignored of ['bytes=abc', 'bytes=0-1,4-5', 'items=0-1', 'bytes=5-2']) {
      const whole = await download('sales_report', analyst, { range: ignored });
      expect(whole.statusCode, ignored).toBe(200);
      expect(whole.body).toBe(SALES);
    }
    const stale = await download('sales_report', analyst, { range: 'bytes=0-1', 'if-range': '"something-else"' });
    expect(stale.statusCode).toBe(200);
    const fresh = await download('sales_report', analyst, {
      range: 'bytes=0-1',
      'if-range': middle.headers.etag as string,
    });
    expect(fresh.statusCode).toBe(206);
    expect(fresh.body).toBe(SALES.slice(0, 2));
  });

  it('serves a range from deep inside a 1 GiB file', async () => {
    const response = await download('big', analyst, { range: `bytes=${GIB - 1024}-` });
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes ${GIB - 1024}-${GIB - 1}/${GIB}`);
    expect(response.rawPayload.length).toBe(1024);
    expect(response.rawPayload.every((byte) => byte === 0)).toBe(true);
  });

  it('streams a 1 GiB file over a real socket in flat memory', { timeout: 120_000 }, async () => {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = ctx.app.server.address() as AddressInfo;
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 10);
    try {
      const { status, length, received } = await new Promise<{ status: number; length: string; received: number }>(
        (resolve, reject) => {
          const request = get(
            { host: '127.0.0.1', port, path: '/api/v1/files/download/big', headers: analyst.headers },
            (response) => {
              let count = 0;
              response.on('data', (chunk: Buffer) => {
                count += chunk.length;
              });
              response.on('end', () =>
                resolve({
                  status: response.statusCode ?? 0,
                  length: String(response.headers['content-length']),
                  received: count,
                }),
              );
              response.on('error', reject);
            },
          );
          request.on('error', reject);
        },
      );
      expect(status).toBe(200);
      expect(length).toBe(String(GIB));
      expect(received).toBe(GIB);
    } finally {
      clearInterval(sampler);
    }
    // Buffering the file would cost a gigabyte; streaming costs a few chunks.
    expect(peak - baseline).toBeLessThan(200 * 1024 * 1024);
  });

  it('logs each download with the user and the file; a HEAD request is not a download', async () => {
    const before = (await auditEntries()).count;
    await download('sales_report', analyst);
    const after = await auditEntries();
    expect(after.count).toBe(before + 1);
    expect(after.data[0]).toMatchObject({
      actor_id: analyst.id,
      actor_email: analyst.email,
      action: AUDIT_ACTIONS.fileDownload,
      target_type: 'file',
      target_id: 'sales_report.csv',
      after: { file: 'sales_report.csv', size: Buffer.byteLength(SALES), range: null },
    });
    expect(after.data[0]!.ip).toBeTruthy();

    const head = await ctx.app.inject({
      method: 'HEAD',
      url: '/api/v1/files/download/sales_report',
      headers: analyst.headers,
    });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect((await auditEntries()).count).toBe(before + 1);
    // Refusals are not downloads either.
    await download('sales_report', nobody);
    await download('missing', analyst);
    expect((await auditEntries()).count).toBe(before + 1);
  });
});

describe('downloads without a files folder', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { FILES_DIR: path.join(tmpdir(), 'dp-files-that-do-not-exist') } });
  });
  afterAll(() => ctx.close());

  it('answer 404, not 500', async () => {
    const admin = await createUser(ctx, { isSuperuser: true });
    const response = await ctx.app.inject({ url: '/api/v1/files/download/anything', headers: admin.headers });
    expect(response.statusCode).toBe(404);
    expect(detailOf(response)).toBe(fileMessages.notFound);
  });
});
