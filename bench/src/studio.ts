import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { demoPath } from '@dataplatform/server/src/modules/studio/engine/demo-data.js';
import { jsonCaller } from './api-call.js';
import { createBenchDatabase, createBenchUser, type BenchDatabase } from './fixture.js';
import type { TargetCheck } from './report.js';
import type { BenchSettings } from './settings.js';
import { median } from './stats.js';
import { createTenantDatabase } from './studio-fixture.js';
import { startTarget, type TargetProcess } from './target-process.js';

/**
 * Studio's engine through its API (issue 31, "Performance"): the real server (`app-server`, a
 * process of its own, over HTTP as a browser calls it) against the same SQL run directly on
 * DuckDB and on PostgreSQL in a process of the same kind (`studio-direct`). Everything is timed in
 * alternating rounds (API, direct, API, direct, …) so the machine's other work weighs on both.
 */

const MIB = 1024 * 1024;
/** How long the extracts route may take to answer a tiny upload before the line is a MISS. */
const PROBE_TIMEOUT_MS = 30_000;
const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef';

export const STUDIO_TARGETS = {
  /** Direct time / API time, medians of uncached runs. */
  apiVsDirect: 0.8,
  /** Uncached time / cached time. */
  cachedSpeedUp: 10,
  /** Deep page time / first page time. */
  deepPageVsFirst: 3,
  uploadRssRiseMiB: 256,
  /** A chart's SVG or PNG drawn by the server (issue 59), p50 in ms, its rows cached. */
  chartDrawMs: 300,
} as const;

/** The aggregate judged: every rate of the demo, grouped by payer (DuckDB's `median`). */
const DEMO_AGGREGATE =
  'SELECT payer, median(negotiated_rate) AS median_rate, count(*) AS rates FROM rates GROUP BY payer ORDER BY median_rate DESC';
/** The same on PostgreSQL, which spells the median as an ordered-set aggregate. */
const TENANT_AGGREGATE =
  'SELECT payer, percentile_cont(0.5) WITHIN GROUP (ORDER BY negotiated_rate) AS median_rate, count(*) AS rates FROM rates GROUP BY payer ORDER BY median_rate DESC';
const RATES_TABLE = 'SELECT payer, plan_name, npi, billing_code, negotiated_rate, state FROM rates';
/** A cross join of the rates with themselves: trillions of pairs, stopped only by the time limit. */
const RUNAWAY = "SELECT count(*) AS n FROM rates AS a CROSS JOIN rates AS b WHERE a.npi || b.npi = 'none'";

const CHART_SPEC =
  '{ mark: bar, encoding: { x: { field: payer, type: nominal }, y: { field: median_rate, type: quantitative } } }';

function definition(title: string, source: 'demo' | 'tenant', cache: string | null, blocks: string[]): string {
  return [`title: ${title}`, `source: ${source}`, ...(cache ? [`cache: ${cache}`] : []), 'blocks:', ...blocks, ''].join(
    '\n',
  );
}
const chartBlock = (id: string, sql: string) =>
  `  - id: ${id}\n    chart:\n      sql: ${JSON.stringify(sql)}\n      spec: ${CHART_SPEC}`;
const tableBlock = (id: string, sql: string) =>
  `  - id: ${id}\n    table: { sql: ${JSON.stringify(sql)}, page_size: 50 }`;
const kpiBlock = (id: string, sql: string) => `  - id: ${id}\n    kpi: { sql: ${JSON.stringify(sql)}, value: n }`;

interface RunAnswer {
  status: number;
  ms: number;
  body: {
    rows?: unknown[][];
    count?: number;
    cached?: boolean;
    elapsed_ms?: number;
    code?: string;
    detail?: unknown;
  };
}

export interface StudioRuns {
  demoRows: number;
  tenantRows: number;
  /** The first run of a demo report: the server generates the demo database then (not judged). */
  demoFirstRunMs: number;
  tenantFillSeconds: number;
  rounds: number;
  aggregate: {
    apiMs: number[];
    /** The engine's own `elapsed_ms` of the same runs: the rest of apiMs is HTTP, session and report look-up. */
    engineMs: number[];
    directMs: number[];
    cachedMs: number[];
    /** The engine's `elapsed_ms` of the cached runs: the SQL check before the cache look-up, and the look-up. */
    cachedEngineMs: number[];
    sameRows: boolean;
  };
  deepPage: {
    skip: number;
    firstMs: number[];
    deepMs: number[];
    count: number;
    directCount: number;
    deepRows: number;
  };
  viewers: {
    viewers: number;
    blocks: string[];
    requests: number;
    statuses: Record<string, number>;
    executions: number;
    cachedAnswers: number;
    ms: number;
  };
  tenant: { apiMs: number[]; engineMs: number[]; directMs: number[]; sameRows: boolean };
  /** `GET …/charts/agg.svg|png` of the cached report, a new width each time: drawn, never a kept drawing. */
  charts: { svgMs: number[]; pngMs: number[]; bytes: { svg: number; png: number } };
  runaway: {
    limitMs: number;
    status: number;
    code: string | undefined;
    ms: number;
    nextStatus: number;
    nextMs: number;
    nextSameRows: boolean;
  };
  upload:
    | { skipped: string }
    | { failed: string }
    | { status: number; bytes: number; ms: number; rssBeforeBytes: number; peakRssBytes: number; answer: unknown };
}

function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

/** Rows as comparable text: the API answers 64-bit integers as numbers, the direct readers as text or bigint. */
function sameRows(a: unknown[][] | undefined, b: unknown[][]): boolean {
  const normal = (rows: unknown[][]) =>
    JSON.stringify(
      rows.map((row) =>
        row.map((value) => {
          if (typeof value === 'bigint') return Number(value);
          if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
          if (typeof value === 'number') return Number(value.toPrecision(12));
          return value;
        }),
      ),
    );
  return a !== undefined && normal(a) === normal(b);
}

export async function runStudio(context: {
  settings: BenchSettings;
  track: (database: BenchDatabase) => void;
  out: (line: string) => void;
}): Promise<StudioRuns> {
  const { settings, out } = context;
  const { demoRows, tenantRows, rounds, timeoutSeconds, uploadBytes } = settings.studio;
  const database = await createBenchDatabase(settings.databaseUrl, '_studio');
  context.track(database);
  const admin = await createBenchUser(database.url, { superuser: true });
  out(`studio: filling the tenant database with ${tenantRows} rates ...`);
  const tenantDatabase = await createTenantDatabase(settings.databaseUrl, tenantRows);
  context.track(tenantDatabase);
  out(`studio: tenant database filled in ${tenantDatabase.seconds.toFixed(1)} s`);

  const dataDir = settings.studio.dataDir ?? mkdtempSync(path.join(tmpdir(), 'dp-bench-studio-'));
  const server = startTarget('app-server', {
    scenario: 'studio',
    env: {
      BENCH_TARGET_DATABASE_URL: database.url,
      BENCH_TARGET_ENV: JSON.stringify({
        DATA_DIR: dataDir,
        STUDIO_DEMO_ROWS: String(demoRows),
        STUDIO_QUERY_TIMEOUT_SECONDS: String(timeoutSeconds),
        // The 1 GB upload must fit (the browser's 64 MB stop is not the API's).
        STUDIO_EXTRACT_MAX_BYTES: String(uploadBytes * 2),
        METRICS_TOKEN,
      }),
    },
  });
  let direct: TargetProcess | undefined;
  try {
    const { port } = await server.next('ready');
    const base = `http://127.0.0.1:${port}`;
    const bearer = { authorization: `Bearer ${admin.token}` };

    const call = jsonCaller<RunAnswer['body'] & Record<string, unknown>>(base, bearer);
    const expectStatus = (answer: { status: number; body: unknown }, status: number, what: string) => {
      if (answer.status !== status) {
        throw new Error(`studio: ${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
      }
    };

    // The tenant, its database as its dburl, and the bench's reports in it.
    const tenant = await call('POST', '/api/v1/tenants/', { name: 'Studio bench', dburl: tenantDatabase.url });
    expectStatus(tenant, 201, 'creating the tenant');
    const inTenant = { 'x-tenant-id': String(tenant.body.id) };
    const createReport = async (text: string) => {
      const created = await call('POST', '/api/v1/studio/reports', { definition: text }, inTenant);
      expectStatus(created, 201, 'creating a report');
      return String(created.body.id);
    };
    const uncached = await createReport(
      definition('Bench demo, uncached', 'demo', null, [
        chartBlock('agg', DEMO_AGGREGATE),
        tableBlock('rates', RATES_TABLE),
        kpiBlock('runaway', RUNAWAY),
      ]),
    );
    const cached = await createReport(
      definition('Bench demo, cached', 'demo', '10m', [chartBlock('agg', DEMO_AGGREGATE)]),
    );
    const tenantReport = await createReport(
      definition('Bench tenant, uncached', 'tenant', null, [chartBlock('agg', TENANT_AGGREGATE)]),
    );
    const run = (report: string, body: object) =>
      call('POST', `/api/v1/studio/reports/${report}/run`, body, inTenant) as Promise<RunAnswer>;

    out(`studio: first demo run (the server generates ${demoRows} rates) ...`);
    const first = await run(uncached, { block: 'agg' });
    expectStatus(first, 200, 'the first demo run');
    out(`studio: demo ready, first run ${(first.ms / 1000).toFixed(1)} s`);

    const file = demoPath(path.join(dataDir, 'studio'), demoRows);
    direct = startTarget('studio-direct', {
      scenario: 'studio-direct',
      env: {},
      args: [
        JSON.stringify({
          duckdbFile: file,
          duckdbThreads: Number(process.env.STUDIO_DUCKDB_THREADS ?? 2),
          duckdbMemoryLimit: process.env.STUDIO_DUCKDB_MEMORY_LIMIT ?? '512MB',
          postgresUrl: tenantDatabase.url,
        }),
      ],
    });
    await direct.next('ready');
    const directTarget = direct;
    const directQuery = async (engine: 'duckdb' | 'postgres', sql: string) => {
      directTarget.send({ type: 'direct-query', engine, sql });
      const result = await directTarget.next('direct-result');
      if (result.error) throw new Error(`studio: direct ${engine} query failed: ${result.error}`);
      return result;
    };

    // 1. The aggregate: API (uncached report), direct DuckDB, in turn; then the cached report.
    out(`studio: demo aggregate, API against DuckDB directly, ${rounds} rounds ...`);
    await directQuery('duckdb', DEMO_AGGREGATE);
    await run(uncached, { block: 'agg' });
    const aggregate = {
      apiMs: [] as number[],
      engineMs: [] as number[],
      directMs: [] as number[],
      cachedMs: [] as number[],
      cachedEngineMs: [] as number[],
      sameRows: true,
    };
    for (let round = 0; round < rounds; round += 1) {
      const pair = async () => {
        const api = await run(uncached, { block: 'agg' });
        expectStatus(api, 200, 'the demo aggregate');
        if (api.body.cached) throw new Error('studio: the uncached report answered from the cache');
        aggregate.apiMs.push(api.ms);
        aggregate.engineMs.push(api.body.elapsed_ms ?? 0);
        return api;
      };
      const viaDirect = async () => {
        const result = await directQuery('duckdb', DEMO_AGGREGATE);
        aggregate.directMs.push(result.ms);
        return result;
      };
      // Flipped order every round: a steady drift favours neither.
      if (round % 2 === 0) {
        const api = await pair();
        aggregate.sameRows &&= sameRows(api.body.rows, (await viaDirect()).rows);
      } else {
        const result = await viaDirect();
        aggregate.sameRows &&= sameRows((await pair()).body.rows, result.rows);
      }
    }
    const fill = await run(cached, { block: 'agg' });
    expectStatus(fill, 200, 'the cached report');
    for (let round = 0; round < rounds; round += 1) {
      const hit = await run(cached, { block: 'agg' });
      expectStatus(hit, 200, 'the cached report');
      if (!hit.body.cached) throw new Error('studio: the cached report ran its query again');
      aggregate.cachedMs.push(hit.ms);
      aggregate.cachedEngineMs.push(hit.body.elapsed_ms ?? 0);
    }

    // 1b. The cached report's chart drawn by the server (issue 59): its rows come from the cache, and
    // each width is a drawing of its own, so every answer is drawn, never a kept drawing.
    out(`studio: the chart drawn as SVG and PNG, ${rounds} rounds ...`);
    const charts = { svgMs: [] as number[], pngMs: [] as number[], bytes: { svg: 0, png: 0 } };
    for (let round = 0; round < rounds + 1; round += 1) {
      for (const format of ['svg', 'png'] as const) {
        const started = performance.now();
        const response = await fetch(
          `${base}/api/v1/studio/reports/${cached}/charts/agg.${format}?width=${600 + round}&theme=${round % 2 === 0 ? 'light' : 'dark'}`,
          { headers: { ...bearer, ...inTenant } },
        );
        const body = Buffer.from(await response.arrayBuffer());
        const ms = performance.now() - started;
        if (response.status !== 200)
          throw new Error(
            `studio: the chart's ${format} answered ${response.status}: ${body.toString().slice(0, 300)}`,
          );
        // The first round warms Vega's and resvg's code up; it is not counted.
        if (round === 0) continue;
        charts[format === 'svg' ? 'svgMs' : 'pngMs'].push(ms);
        charts.bytes[format] = body.length;
      }
    }

    // 2. A page deep in the rates against the first page, and its count against COUNT(*).
    const skip = Math.min(1_000_000, demoRows - 50);
    out(`studio: table pages at skip 0 and ${skip}, ${rounds} rounds ...`);
    const deepPage = { skip, firstMs: [] as number[], deepMs: [] as number[], count: 0, directCount: 0, deepRows: 0 };
    await run(uncached, { block: 'rates', skip: 0, limit: 50 });
    await run(uncached, { block: 'rates', skip, limit: 50 });
    for (let round = 0; round < rounds; round += 1) {
      const order = round % 2 === 0 ? [0, skip] : [skip, 0];
      for (const at of order) {
        const page = await run(uncached, { block: 'rates', skip: at, limit: 50 });
        expectStatus(page, 200, `the rates page at ${at}`);
        (at === 0 ? deepPage.firstMs : deepPage.deepMs).push(page.ms);
        if (at === skip) {
          deepPage.count = page.body.count ?? -1;
          deepPage.deepRows = page.body.rows?.length ?? 0;
        }
      }
    }
    deepPage.directCount = Number((await directQuery('duckdb', 'SELECT count(*) FROM rates')).rows[0]?.[0]);

    // 3. Fifty viewers open the payer report at once, each running every query block as the viewer
    // page does, on parameters nothing has run yet: each query must run once, and none may fail.
    const viewersCount = 50;
    const payer = await call('GET', '/api/v1/studio/reports/payer');
    expectStatus(payer, 200, 'reading the payer report');
    const blocks = (payer.body.blocks as { id: string; kind: string }[])
      .filter((block) => block.kind !== 'text')
      .map((block) => block.id);
    out(`studio: ${viewersCount} viewers of the payer report at once (${blocks.length} query blocks each) ...`);
    const executions = async () => {
      const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`studio: /metrics answered ${response.status}`);
      const line = /^dp_studio_query_executions_total\{source="demo"\} (\d+)/m.exec(text);
      return Number(line?.[1] ?? 0);
    };
    const before = await executions();
    const viewerParams = { code: '99215', state: '' };
    const viewersStarted = performance.now();
    const answers = await Promise.all(
      Array.from({ length: viewersCount }, () =>
        Promise.all(
          blocks.map((block) => call('POST', '/api/v1/studio/reports/payer/run', { block, params: viewerParams })),
        ),
      ),
    );
    const viewersMs = performance.now() - viewersStarted;
    const flat = answers.flat();
    const statuses: Record<string, number> = {};
    for (const answer of flat) {
      const key = answer.status === 200 ? '200' : `${answer.status} ${String(answer.body.code)}`;
      statuses[key] = (statuses[key] ?? 0) + 1;
    }
    const viewers = {
      viewers: viewersCount,
      blocks,
      requests: flat.length,
      statuses,
      executions: (await executions()) - before,
      cachedAnswers: flat.filter((answer) => answer.body.cached === true).length,
      ms: viewersMs,
    };

    // 4. The aggregate on the tenant's PostgreSQL database: API against pg directly.
    out(`studio: tenant aggregate over ${tenantRows} rows, API against pg directly, ${rounds} rounds ...`);
    await directQuery('postgres', TENANT_AGGREGATE);
    await run(tenantReport, { block: 'agg' });
    const tenantRuns = { apiMs: [] as number[], engineMs: [] as number[], directMs: [] as number[], sameRows: true };
    for (let round = 0; round < rounds; round += 1) {
      const viaApi = async () => {
        const api = await run(tenantReport, { block: 'agg' });
        expectStatus(api, 200, 'the tenant aggregate');
        tenantRuns.apiMs.push(api.ms);
        tenantRuns.engineMs.push(api.body.elapsed_ms ?? 0);
        return api;
      };
      const viaPg = async () => {
        const result = await directQuery('postgres', TENANT_AGGREGATE);
        tenantRuns.directMs.push(result.ms);
        return result;
      };
      if (round % 2 === 0) {
        const api = await viaApi();
        tenantRuns.sameRows &&= sameRows(api.body.rows, (await viaPg()).rows);
      } else {
        const result = await viaPg();
        tenantRuns.sameRows &&= sameRows((await viaApi()).body.rows, result.rows);
      }
    }

    // 5a. A runaway query is stopped at the time limit, and the next query answers as before.
    out(`studio: a runaway query against the ${timeoutSeconds} s time limit ...`);
    const runaway = await run(uncached, { block: 'runaway' });
    const next = await run(uncached, { block: 'agg' });
    const runawayResult = {
      limitMs: timeoutSeconds * 1000,
      status: runaway.status,
      code: runaway.body.code,
      ms: runaway.ms,
      nextStatus: next.status,
      nextMs: next.ms,
      nextSameRows: sameRows(next.body.rows, (await directQuery('duckdb', DEMO_AGGREGATE)).rows),
    };

    // 5b. A 1 GB CSV uploaded as an extract: the server's resident memory may rise by < 256 MiB.
    out(`studio: uploading a ${(uploadBytes / MIB).toFixed(0)} MiB CSV as an extract ...`);
    const upload = await uploadCsv(base, bearer, inTenant, server, uploadBytes);
    if ('skipped' in upload) out(`studio: upload ${upload.skipped}`);
    if ('failed' in upload) {
      out(`studio: upload failed: ${upload.failed}`);
      // A server stuck in a request would wait for it on SIGTERM for ever.
      process.kill(server.pid, 'SIGKILL');
    }

    return {
      demoRows,
      tenantRows,
      demoFirstRunMs: first.ms,
      tenantFillSeconds: tenantDatabase.seconds,
      rounds,
      aggregate,
      deepPage,
      viewers,
      tenant: tenantRuns,
      charts,
      runaway: runawayResult,
      upload,
    };
  } finally {
    await direct?.stop();
    await server.stop();
    if (!settings.studio.dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Streams a generated CSV of `bytes` (fixed-width rows, so its length is known up front) to
 * `POST /studio/extracts`, never holding it in memory here, while the server's peak RSS is reset
 * before and read after. A 404 from the route (not built yet) is a SKIP, not a failure.
 */
export type UploadRun = StudioRuns['upload'];

export async function uploadCsv(
  base: string,
  bearer: Record<string, string>,
  inTenant: Record<string, string>,
  server: TargetProcess,
  bytes: number,
  name = 'bench_upload',
): Promise<UploadRun> {
  const header = 'id,payer,billing_code,negotiated_rate,state\n';
  const rowOf = (i: number) =>
    `${String(i).padStart(10, '0')},Payer ${String(i % 97).padStart(2, '0')},${String(99000 + (i % 900))},${String(
      ((i * 7919) % 100000) / 100 + 1000,
    )
      .padEnd(8, '0')
      .slice(0, 8)},${['CA', 'TX', 'NY', 'FL'][i % 4]}\n`;
  const rowLength = rowOf(0).length;
  const rows = Math.ceil((bytes - header.length) / rowLength);
  const length = header.length + rows * rowLength;

  // An unknown route answers 404 without reading the body and drops the connection, so the route is
  // probed first with a two-line file, stored under a name of its own. (Not an empty one: over HTTP an
  // empty body made the extracts branch's server grow its heap until it died, 27 Nov 2026.)
  const probeRssBefore = rssBytes(server.pid);
  let probe: Response;
  try {
    probe = await fetch(`${base}/api/v1/studio/extracts?name=bench_probe`, {
      method: 'POST',
      headers: { ...bearer, ...inTenant, 'content-type': 'text/csv' },
      body: 'id\n1\n',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await probe.arrayBuffer();
  } catch (error) {
    const rise = (rssBytes(server.pid) - probeRssBefore) / MIB;
    return {
      failed: `a 5-byte CSV got no answer in ${PROBE_TIMEOUT_MS / 1000} s (${String(error)}); the server's RSS rose ${rise.toFixed(0)} MiB meanwhile`,
    };
  }
  if (probe.status === 404) return { skipped: 'SKIP (no extracts route)' };

  const rssBeforeBytes = rssBytes(server.pid);
  server.send({ type: 'reset-peak-rss' });
  const started = performance.now();
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    let settled = false;
    const settle = (result: { status: number; body: string } | Error) => {
      if (settled) return;
      settled = true;
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    // What has arrived of the answer: a reset right after an early answer (413, 422, …) must not
    // lose it, whether its body has all been read or not.
    let status: number | undefined;
    const chunks: Buffer[] = [];
    const received = (code: number) => ({ status: code, body: Buffer.concat(chunks).toString('utf8') });
    const answerOr = (error: Error) => (status === undefined ? error : received(status));
    const request = http.request(
      `${base}/api/v1/studio/extracts?name=${name}`,
      {
        method: 'POST',
        headers: { ...bearer, ...inTenant, 'content-type': 'text/csv', 'content-length': String(length) },
      },
      (response) => {
        const code = response.statusCode ?? 0;
        status = code;
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          settle(received(code));
          // An early answer ends the upload.
          request.destroy();
        });
        response.on('error', (error) => settle(answerOr(error)));
      },
    );
    // A server that answers before reading the whole body may reset the connection under the writes.
    request.on('error', (error) => settle(answerOr(error)));
    let i = 0;
    request.write(header);
    const write = () => {
      while (i < rows && !request.destroyed) {
        const batch: string[] = [];
        for (let end = Math.min(rows, i + 4096); i < end; i += 1) batch.push(rowOf(i));
        if (!request.write(batch.join(''))) {
          request.once('drain', write);
          return;
        }
      }
      if (!request.destroyed) request.end();
    };
    write();
  });
  const ms = performance.now() - started;
  server.send({ type: 'report' });
  const { stats } = await server.next('report');
  let parsed: unknown = answer.body;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    // Not JSON: kept as text.
  }
  return { status: answer.status, bytes: length, ms, rssBeforeBytes, peakRssBytes: stats.peakRssBytes, answer: parsed };
}

const msText = (values: number[]) => `${median(values).toFixed(1)} ms`;
const range = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;

export function checkStudioTargets(runs: StudioRuns): TargetCheck[] {
  const rows = (count: number) => count.toLocaleString('en').replace(/,/g, ' ');
  const { aggregate, deepPage, viewers, tenant, runaway, upload } = runs;
  const checks: TargetCheck[] = [];

  checks.push({
    name: 'studio: the first demo run, which generates the demo database',
    measured: `${(runs.demoFirstRunMs / 1000).toFixed(1)} s for ${rows(runs.demoRows)} rates (tenant database filled by SQL in ${runs.tenantFillSeconds.toFixed(1)} s)`,
    pass: null,
  });
  const aggregateRatio = median(aggregate.directMs) / median(aggregate.apiMs);
  checks.push({
    name: `studio: demo aggregate over ${rows(runs.demoRows)} rates via API ≥ ${STUDIO_TARGETS.apiVsDirect} × DuckDB directly`,
    measured: `${aggregateRatio.toFixed(2)} × (API ${msText(aggregate.apiMs)} [${range(aggregate.apiMs)}] vs direct ${msText(aggregate.directMs)} [${range(aggregate.directMs)}], medians of ${runs.rounds} uncached runs each; engine ${msText(aggregate.engineMs)} of the API's)${aggregate.sameRows ? '' : '; ROWS DIFFER'}`,
    pass: aggregateRatio >= STUDIO_TARGETS.apiVsDirect && aggregate.sameRows,
  });
  const speedUp = median(aggregate.apiMs) / median(aggregate.cachedMs);
  checks.push({
    name: `studio: cached run ≥ ${STUDIO_TARGETS.cachedSpeedUp} × faster than uncached`,
    measured: `${speedUp.toFixed(1)} × (cached ${msText(aggregate.cachedMs)}, engine ${msText(aggregate.cachedEngineMs)} of it, vs uncached ${msText(aggregate.apiMs)})`,
    pass: speedUp >= STUDIO_TARGETS.cachedSpeedUp,
  });

  const { charts } = runs;
  checks.push({
    name: `studio: a chart's SVG or PNG drawn in ≤ ${STUDIO_TARGETS.chartDrawMs} ms p50`,
    measured: `SVG ${msText(charts.svgMs)} [${range(charts.svgMs)}], PNG ${msText(charts.pngMs)} [${range(charts.pngMs)}] (medians of ${charts.svgMs.length} drawings each over HTTP, rows cached; ${Math.round(charts.bytes.svg / 1024)} KB and ${Math.round(charts.bytes.png / 1024)} KB)`,
    pass: median(charts.svgMs) <= STUDIO_TARGETS.chartDrawMs && median(charts.pngMs) <= STUDIO_TARGETS.chartDrawMs,
  });

  const pageRatio = median(deepPage.deepMs) / median(deepPage.firstMs);
  checks.push({
    name: `studio: table page at skip ${rows(deepPage.skip)} within ${STUDIO_TARGETS.deepPageVsFirst} × the first page`,
    measured: `${pageRatio.toFixed(2)} × (${msText(deepPage.deepMs)} vs ${msText(deepPage.firstMs)}; ${deepPage.deepRows} rows)`,
    pass: pageRatio <= STUDIO_TARGETS.deepPageVsFirst && deepPage.deepRows === 50,
  });
  checks.push({
    name: 'studio: the table page’s count is exact',
    measured: `${rows(deepPage.count)} vs COUNT(*) ${rows(deepPage.directCount)}`,
    pass: deepPage.count === deepPage.directCount,
  });

  const failed = viewers.requests - (viewers.statuses['200'] ?? 0);
  const statusText = Object.entries(viewers.statuses)
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');
  checks.push({
    name: `studio: ${viewers.viewers} concurrent viewers, each query executes once, none fails`,
    measured: `${viewers.executions} executions for ${viewers.blocks.length} queries; ${viewers.requests} runs: ${statusText}; all answered in ${(viewers.ms / 1000).toFixed(2)} s`,
    pass: viewers.executions === viewers.blocks.length && failed === 0,
  });

  const tenantRatio = median(tenant.directMs) / median(tenant.apiMs);
  checks.push({
    name: `studio: tenant aggregate over ${rows(runs.tenantRows)} rows via API ≥ ${STUDIO_TARGETS.apiVsDirect} × pg directly`,
    measured: `${tenantRatio.toFixed(2)} × (API ${msText(tenant.apiMs)} [${range(tenant.apiMs)}] vs direct ${msText(tenant.directMs)} [${range(tenant.directMs)}]; engine ${msText(tenant.engineMs)} of the API's)${tenant.sameRows ? '' : '; ROWS DIFFER'}`,
    pass: tenantRatio >= STUDIO_TARGETS.apiVsDirect && tenant.sameRows,
  });

  // Stopped at the limit: not before it, and within a second after it (the engine's interrupt).
  const stoppedInTime = runaway.ms >= runaway.limitMs - 50 && runaway.ms < runaway.limitMs + 1_000;
  checks.push({
    name: `studio: a runaway query is stopped at its ${runaway.limitMs / 1000} s limit, the next answers normally`,
    measured: `${runaway.status} ${String(runaway.code)} after ${(runaway.ms / 1000).toFixed(2)} s; next: ${runaway.nextStatus} in ${runaway.nextMs.toFixed(0)} ms${runaway.nextSameRows ? ', right rows' : ', WRONG ROWS'}`,
    pass: runaway.code === 'query_timeout' && stoppedInTime && runaway.nextStatus === 200 && runaway.nextSameRows,
  });

  if ('skipped' in upload) {
    checks.push({ name: 'studio: 1 GB CSV upload raises RSS < 256 MiB', measured: upload.skipped, pass: null });
  } else if ('failed' in upload) {
    checks.push({ name: 'studio: 1 GB CSV upload raises RSS < 256 MiB', measured: upload.failed, pass: false });
  } else {
    const rise = (upload.peakRssBytes - upload.rssBeforeBytes) / MIB;
    checks.push({
      name: `studio: ${(upload.bytes / MIB).toFixed(0)} MiB CSV upload raises RSS < ${STUDIO_TARGETS.uploadRssRiseMiB} MiB`,
      measured: `${upload.status} in ${(upload.ms / 1000).toFixed(1)} s; peak ${(upload.peakRssBytes / MIB).toFixed(0)} MiB from ${(upload.rssBeforeBytes / MIB).toFixed(0)} MiB: +${rise.toFixed(0)} MiB`,
      pass: upload.status === 201 && rise < STUDIO_TARGETS.uploadRssRiseMiB,
    });
  }
  return checks;
}
