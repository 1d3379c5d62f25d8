import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startObjectStore } from '@dataplatform/server/scripts/fleet/launcher.js';
import { jsonCaller } from './api-call.js';
import { createBenchDatabase, createBenchUser, type BenchDatabase } from './fixture.js';
import type { TargetCheck } from './report.js';
import type { BenchSettings } from './settings.js';
import { median } from './stats.js';
import { uploadCsv, type UploadRun } from './studio.js';
import { startTarget, type TargetProcess } from './target-process.js';

/*
 * Extracts in an object store (issue 61, decision 060): the same query on an extract read from a
 * folder (`file://`) and from an S3-compatible store (s3rver on loopback) once the instance has its
 * copy, the first query of an instance whose cache is cold, and large uploads with S3 storage. The
 * 10 GB upload is its own scenario (`studio-10g`), run only when BENCH_SCENARIOS names it.
 */

const MIB = 1024 * 1024;

export const STORAGE_TARGETS = {
  /** File time / S3 time, medians of warm uncached runs: S3 with its copy is at least 0.9 × as fast. */
  cachedVsFile: 0.9,
  /** The first query after a cold cache, less a warm one. */
  coldExtraMs: 2_000,
  uploadRssRiseMiB: 256,
  bigUploadRssRiseMiB: 512,
} as const;

/** An aggregate over every row, and a deep page of the table sorted by a column. */
const AGGREGATE =
  'SELECT payer, avg(negotiated_rate) AS mean_rate, count(*) AS n FROM big GROUP BY payer ORDER BY payer';
const TABLE = 'SELECT id, payer, billing_code, negotiated_rate, state FROM big';

interface Answer {
  status: number;
  ms: number;
  body: { rows?: unknown[][]; count?: number; code?: string; detail?: unknown; id?: string };
}

/** A server of the bench's own (`app-server`) on `databaseUrl` with `env`, and its API as a superuser. */
async function startServer(scenario: string, databaseUrl: string, token: string, env: Record<string, string>) {
  const server = startTarget('app-server', {
    scenario,
    // The AWS SDK reads its credentials from the process's environment; the rest is the server's config.
    env: { ...env, BENCH_TARGET_DATABASE_URL: databaseUrl, BENCH_TARGET_ENV: JSON.stringify(env) },
  });
  const { port } = await server.next('ready');
  const base = `http://127.0.0.1:${port}`;
  const bearer = { authorization: `Bearer ${token}` };
  const call = jsonCaller<Answer['body']>(base, bearer);
  return { server, base, bearer, call };
}
type Server = Awaited<ReturnType<typeof startServer>>;

function expectStatus(answer: { status: number; body: unknown }, status: number, what: string): void {
  if (answer.status !== status) {
    throw new Error(`studio-storage: ${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  }
}

async function newTenant(server: Server, name: string): Promise<Record<string, string>> {
  const tenant = await server.call('POST', '/api/v1/tenants/', { name });
  expectStatus(tenant, 201, 'creating a tenant');
  return { 'x-tenant-id': String(tenant.body.id) };
}

/** Runs `sql` on the tenant's extracts (a preview: never cached). */
function preview(server: Server, inTenant: Record<string, string>, sql: string, page?: { skip: number }) {
  const block = page
    ? `table: { sql: ${JSON.stringify(sql)}, page_size: 50 }`
    : `chart: { sql: ${JSON.stringify(sql)}, spec: { mark: bar, encoding: { x: { field: payer, type: nominal }, y: { field: n, type: quantitative } } } }`;
  return server.call(
    'POST',
    '/api/v1/studio/preview',
    {
      definition: `title: Bench\nsource: extract\nblocks:\n  - id: b\n    ${block}\n`,
      block: 'b',
      ...(page ? { skip: page.skip, limit: 50, sort: [{ column: 'negotiated_rate', direction: 'desc' }] } : {}),
    },
    inTenant,
  ) as Promise<Answer>;
}

/** The bytes s3rver keeps for the objects under `prefix` (its files are named after the keys). */
function storedBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (!name.endsWith('._S3rver_object')) continue;
    total += statSync(path.join(dir, name)).size;
  }
  return total;
}

export interface StorageRuns {
  extractBytes: number;
  rounds: number;
  fileMs: number[];
  s3WarmMs: number[];
  s3ColdMs: number;
  upload: UploadRun;
}

export async function runStudioStorage(context: {
  settings: BenchSettings;
  track: (database: BenchDatabase) => void;
  out: (line: string) => void;
}): Promise<StorageRuns> {
  const { settings, out } = context;
  const { rounds, storageExtractBytes, uploadBytes } = settings.studio;
  const database = await createBenchDatabase(settings.databaseUrl, '_storage');
  context.track(database);
  const admin = await createBenchUser(database.url, { superuser: true });
  const dir = mkdtempSync(path.join(tmpdir(), 'dp-bench-storage-'));
  const store = await startObjectStore(path.join(dir, 's3'));
  const servers: TargetProcess[] = [];
  const start = async (name: string, env: Record<string, string>) => {
    const started = await startServer('studio-storage', database.url, admin.token, {
      DATA_DIR: path.join(dir, name),
      STUDIO_EXTRACT_MAX_BYTES: String(uploadBytes * 2),
      ...env,
    });
    servers.push(started.server);
    return started;
  };
  try {
    const file = await start('file', { STUDIO_STORAGE_URL: pathToFileURL(path.join(dir, 'folder-store')).href });
    const s3First = await start('s3-first', store.env);
    const s3Second = await start('s3-second', store.env);

    out(`studio-storage: a ${(storageExtractBytes / MIB).toFixed(0)} MiB extract in a folder and in S3 ...`);
    const inFile = await newTenant(file, 'Storage bench, folder');
    const inS3 = await newTenant(file, 'Storage bench, S3');
    const put = async (server: Server, inTenant: Record<string, string>) => {
      const uploaded = await uploadCsv(server.base, server.bearer, inTenant, server.server, storageExtractBytes, 'big');
      if (!('status' in uploaded) || uploaded.status !== 201) {
        throw new Error(`studio-storage: the upload answered ${JSON.stringify(uploaded).slice(0, 300)}`);
      }
    };
    await put(file, inFile);
    await put(s3First, inS3);

    // The second S3 instance has never read it: its first query fetches the file.
    const cold = await preview(s3Second, inS3, AGGREGATE);
    expectStatus(cold, 200, 'the cold query');
    const fileFirst = await preview(file, inFile, AGGREGATE);
    expectStatus(fileFirst, 200, 'the first folder query');
    const fileMs: number[] = [];
    const s3WarmMs: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // Alternating, each first in half the rounds, so the machine's other work weighs on both.
      const order = round % 2 === 0 ? ['file', 's3'] : ['s3', 'file'];
      for (const which of order) {
        const answer =
          which === 'file' ? await preview(file, inFile, AGGREGATE) : await preview(s3Second, inS3, AGGREGATE);
        expectStatus(answer, 200, `a ${which} query`);
        (which === 'file' ? fileMs : s3WarmMs).push(answer.ms);
      }
    }

    out(`studio-storage: uploading a ${(uploadBytes / MIB).toFixed(0)} MiB CSV with S3 storage ...`);
    const upload = await uploadCsv(s3First.base, s3First.bearer, inS3, s3First.server, uploadBytes, 'bench_upload');
    return { extractBytes: storageExtractBytes, rounds, fileMs, s3WarmMs, s3ColdMs: cold.ms, upload };
  } finally {
    for (const server of servers) await server.stop();
    await store.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface BigUploadRuns {
  upload: UploadRun;
  /** The extract's DuckDB file as the store holds it. */
  storedBytes: number;
  rows: number | undefined;
  aggregate: { status: number; ms: number; groups: number };
  deepPage: { status: number; ms: number; skip: number; count: number | undefined };
}

/**
 * `studio-10g` (opt-in: BENCH_SCENARIOS=studio-10g): a 10 GB CSV, generated as it is sent (never held
 * in memory), uploaded through the API with S3 storage, then an aggregate and a deep page over it.
 */
export async function runStudioBigUpload(context: {
  settings: BenchSettings;
  track: (database: BenchDatabase) => void;
  out: (line: string) => void;
}): Promise<BigUploadRuns> {
  const { settings, out } = context;
  const bytes = settings.studio.bigUploadBytes;
  const database = await createBenchDatabase(settings.databaseUrl, '_10g');
  context.track(database);
  const admin = await createBenchUser(database.url, { superuser: true });
  const dir = mkdtempSync(path.join(tmpdir(), 'dp-bench-10g-'));
  const store = await startObjectStore(path.join(dir, 's3'));
  let server: Server | undefined;
  try {
    server = await startServer('studio-10g', database.url, admin.token, {
      DATA_DIR: path.join(dir, 'data'),
      ...store.env,
      STUDIO_EXTRACT_MAX_BYTES: String(Math.ceil(bytes * 1.1)),
      STUDIO_EXTRACT_CONVERT_TIMEOUT_SECONDS: '3600',
      STUDIO_EXTRACT_UPLOAD_TIMEOUT_SECONDS: '7200',
      STUDIO_QUERY_TIMEOUT_SECONDS: '300',
      STUDIO_CACHE_MAX_BYTES: String(bytes * 2),
    });
    const inTenant = await newTenant(server, 'Studio 10 GB');
    out(`studio-10g: uploading a ${(bytes / 1024 ** 3).toFixed(1)} GiB CSV with S3 storage ...`);
    const upload = await uploadCsv(server.base, server.bearer, inTenant, server.server, bytes, 'big');
    if (!('status' in upload) || upload.status !== 201) {
      return {
        upload,
        storedBytes: 0,
        rows: undefined,
        aggregate: { status: 0, ms: 0, groups: 0 },
        deepPage: { status: 0, ms: 0, skip: 0, count: undefined },
      };
    }
    const rows = (upload.answer as { rows?: number }).rows;
    out('studio-10g: an aggregate and a deep page over it ...');
    const aggregate = await preview(server, inTenant, AGGREGATE);
    const skip = Math.max(0, (rows ?? 0) - 100);
    const deep = await preview(server, inTenant, TABLE, { skip });
    return {
      upload,
      storedBytes: storedBytes(path.join(dir, 's3')),
      rows,
      aggregate: { status: aggregate.status, ms: aggregate.ms, groups: aggregate.body.rows?.length ?? 0 },
      deepPage: { status: deep.status, ms: deep.ms, skip, count: deep.body.count },
    };
  } finally {
    await server?.server.stop();
    await store.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const rssRise = (upload: UploadRun) =>
  'status' in upload ? (upload.peakRssBytes - upload.rssBeforeBytes) / MIB : Number.NaN;

export function checkStorageTargets(runs: StorageRuns): TargetCheck[] {
  const file = median(runs.fileMs);
  const s3 = median(runs.s3WarmMs);
  const ratio = file / s3;
  const cold = runs.s3ColdMs - s3;
  const checks: TargetCheck[] = [
    {
      name: `studio: S3 query on a cached ${(runs.extractBytes / MIB).toFixed(0)} MiB extract ≥ ${STORAGE_TARGETS.cachedVsFile} × file://`,
      measured: `${ratio.toFixed(2)} × (file ${file.toFixed(1)} ms, S3 ${s3.toFixed(1)} ms, medians of ${runs.rounds})`,
      pass: ratio >= STORAGE_TARGETS.cachedVsFile,
    },
    {
      name: `studio: first query after a cold cache ≤ warm + ${STORAGE_TARGETS.coldExtraMs / 1000} s`,
      measured: `${runs.s3ColdMs.toFixed(0)} ms cold, ${s3.toFixed(0)} ms warm: +${cold.toFixed(0)} ms`,
      pass: cold <= STORAGE_TARGETS.coldExtraMs,
    },
  ];
  const { upload } = runs;
  checks.push({
    name: `studio: CSV upload with S3 storage raises RSS < ${STORAGE_TARGETS.uploadRssRiseMiB} MiB`,
    measured:
      'status' in upload
        ? `${upload.status} in ${(upload.ms / 1000).toFixed(1)} s for ${(upload.bytes / MIB).toFixed(0)} MiB: +${rssRise(upload).toFixed(0)} MiB`
        : JSON.stringify(upload),
    pass: 'status' in upload ? upload.status === 201 && rssRise(upload) < STORAGE_TARGETS.uploadRssRiseMiB : false,
  });
  return checks;
}

export function checkBigUploadTargets(runs: BigUploadRuns): TargetCheck[] {
  const { upload } = runs;
  if (!('status' in upload))
    return [{ name: 'studio: 10 GB CSV upload', measured: JSON.stringify(upload), pass: false }];
  return [
    {
      name: `studio: ${(upload.bytes / 1024 ** 3).toFixed(1)} GiB CSV upload (S3) raises RSS < ${STORAGE_TARGETS.bigUploadRssRiseMiB} MiB`,
      measured: `${upload.status} in ${(upload.ms / 1000).toFixed(0)} s (upload and conversion); +${rssRise(upload).toFixed(0)} MiB; ${runs.rows ?? '?'} rows, ${(runs.storedBytes / MIB).toFixed(0)} MiB in the store`,
      pass: upload.status === 201 && rssRise(upload) < STORAGE_TARGETS.bigUploadRssRiseMiB,
    },
    {
      name: 'studio: aggregate over the 10 GB extract (reference)',
      measured: `${runs.aggregate.status} in ${(runs.aggregate.ms / 1000).toFixed(1)} s, ${runs.aggregate.groups} groups`,
      pass: null,
    },
    {
      name: 'studio: deep page of the 10 GB extract (reference)',
      measured: `${runs.deepPage.status} in ${(runs.deepPage.ms / 1000).toFixed(1)} s at skip ${runs.deepPage.skip} of ${runs.deepPage.count ?? '?'}`,
      pass: null,
    },
  ];
}
