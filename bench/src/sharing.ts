import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createSigner } from 'fast-jwt';
import { Agent, request } from 'undici';
import { createBenchDatabase, createBenchUser, type BenchDatabase } from './fixture.js';
import type { TargetCheck } from './report.js';
import type { BenchSettings } from './settings.js';
import { median, percentile } from './stats.js';
import { startTarget } from './target-process.js';

/**
 * Studio beyond the team (issue 58, "Performance"): a crowd of anonymous viewers opening one share
 * link at once, against one viewer alone; and an embedded run, its token checked, against a
 * signed-in run of the same block. The real server in a process of its own, over HTTP.
 */

const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef';
/** The width a viewer's charts are drawn at (a laptop's report column). */
const CHART_WIDTH = 1000;

export const SHARING_TARGETS = {
  crowd: 200,
  /** The crowd's p99 over one viewer's median. */
  crowdP99VsSingle: 3,
  /** An embedded run's median over a signed-in run's. */
  embedVsSignedIn: 1.2,
} as const;

export interface SharingRuns {
  demoRows: number;
  blocks: string[];
  singleMs: number[];
  crowdMs: number[];
  crowdStatuses: Record<string, number>;
  crowdExecutions: number;
  signedInMs: number[];
  embeddedMs: number[];
}

export async function runSharing(context: {
  settings: BenchSettings;
  track: (database: BenchDatabase) => void;
  out: (line: string) => void;
}): Promise<SharingRuns> {
  const { settings, out } = context;
  const { demoRows } = settings.studio;
  const database = await createBenchDatabase(settings.databaseUrl, '_sharing');
  context.track(database);
  const admin = await createBenchUser(database.url, { superuser: true });
  const dataDir = settings.studio.dataDir ?? mkdtempSync(path.join(tmpdir(), 'dp-bench-sharing-'));
  const server = startTarget('app-server', {
    scenario: 'sharing',
    env: {
      BENCH_TARGET_DATABASE_URL: database.url,
      BENCH_TARGET_ENV: JSON.stringify({ DATA_DIR: dataDir, STUDIO_DEMO_ROWS: String(demoRows), METRICS_TOKEN }),
    },
  });
  const viewers = new Agent();
  try {
    const { port } = await server.next('ready');
    const base = `http://127.0.0.1:${port}`;
    let headers: Record<string, string> = { authorization: `Bearer ${admin.token}` };
    const call = async (method: string, url: string, body?: unknown, extra: Record<string, string> = headers) => {
      const started = performance.now();
      const response = await fetch(`${base}${url}`, {
        method,
        headers: body === undefined ? extra : { ...extra, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return {
        status: response.status,
        ms: performance.now() - started,
        body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
      };
    };
    const expectOk = <T extends { status: number; body: unknown }>(answer: T, what: string): T => {
      if (answer.status >= 300) {
        throw new Error(`sharing: ${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
      }
      return answer;
    };
    const tenant = expectOk(await call('POST', '/api/v1/tenants/', { name: 'Sharing bench' }), 'creating the tenant');
    headers = { ...headers, 'x-tenant-id': String(tenant.body.id) };
    // The payer report, as a tenant's own (a built-in cannot be shared).
    const payer = expectOk(await call('GET', '/api/v1/studio/reports/payer'), 'reading the payer report');
    const report = expectOk(
      await call('POST', '/api/v1/studio/reports', { definition: payer.body.definition, slug: 'shared-payer' }),
      'creating the report',
    );
    const reportId = String(report.body.id);
    const reportBlocks = report.body.blocks as { id: string; kind: string }[];
    const blocks = reportBlocks.filter((block) => block.kind !== 'text').map((block) => block.id);
    const chartBlocks = reportBlocks.filter((block) => block.kind === 'chart').map((block) => block.id);
    const codes = (
      expectOk(await call('GET', `/api/v1/studio/reports/${reportId}/params/code/options`), 'listing codes').body
        .data as string[]
    ).slice(0, 12);

    /**
     * A viewer's call as its browser makes it (keep-alive, gzip accepted: what fetch sends over http),
     * through undici's request API rather than fetch: fetch's own layers cost this process about
     * 0.6 ms of CPU a call, four times what the server spends answering one, and on a 2-core host a
     * crowd of fetches measured the client (bench/results/2026-12-08-sharing-crowd.md).
     */
    const viewerCall = async (method: string, url: string, body?: unknown) => {
      const response = await request(`${base}${url}`, {
        method: method as 'GET' | 'POST',
        dispatcher: viewers,
        headers: {
          'accept-encoding': 'gzip, deflate',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const bytes = Buffer.from(await response.body.arrayBuffer());
      const encoding = response.headers['content-encoding'];
      if (encoding !== undefined && encoding !== 'gzip')
        throw new Error(`sharing: ${url} answered in ${String(encoding)}`);
      return { status: response.statusCode, text: (encoding === 'gzip' ? gunzipSync(bytes) : bytes).toString() };
    };

    /**
     * One anonymous viewer, as the viewer page does: the report with its blocks' first runs, then any
     * block that came without one, and the server's drawing of each chart, at once.
     */
    const view = async (token: string) => {
      const started = performance.now();
      const shown = await viewerCall('GET', `/api/v1/studio/public/${token}`);
      expectOk({ status: shown.status, body: shown.text }, 'a shared report');
      const firstRuns = new Set(
        ((JSON.parse(shown.text) as Record<string, unknown>).first_runs as { request: { block: string } }[]).map(
          (first) => first.request.block,
        ),
      );
      const rest = await Promise.all([
        ...blocks
          .filter((block) => !firstRuns.has(block))
          .map((block) => viewerCall('POST', `/api/v1/studio/public/${token}/run`, { block })),
        ...chartBlocks.map((block) =>
          viewerCall('GET', `/api/v1/studio/public/${token}/charts/${block}.svg?theme=light&width=${CHART_WIDTH}`),
        ),
      ]);
      return { ms: performance.now() - started, statuses: [shown.status, ...rest.map((answer) => answer.status)] };
    };
    const link = async (code: string) =>
      String(
        expectOk(await call('POST', `/api/v1/studio/reports/${reportId}/links`, { params: { code } }), 'a link').body
          .token,
      );

    out(`sharing: the first run (the server generates ${demoRows} demo rates if it has none) ...`);
    await view(await link(codes[0]!));
    out('sharing: one viewer at a time, each on a code nothing has run yet ...');
    const singleMs: number[] = [];
    for (const code of codes.slice(1, 6)) singleMs.push((await view(await link(code))).ms);

    const executions = async () => {
      const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const line = /^dp_studio_query_executions_total\{source="demo"\} (\d+)/m.exec(await response.text());
      return Number(line?.[1] ?? 0);
    };
    out(`sharing: ${SHARING_TARGETS.crowd} anonymous viewers of one link at once ...`);
    const crowdToken = await link(codes[6]!);
    const before = await executions();
    const crowd = await Promise.all(Array.from({ length: SHARING_TARGETS.crowd }, () => view(crowdToken)));
    const crowdExecutions = (await executions()) - before;
    const crowdStatuses: Record<string, number> = {};
    for (const status of crowd.flatMap((viewer) => viewer.statuses)) {
      crowdStatuses[status] = (crowdStatuses[status] ?? 0) + 1;
    }

    out('sharing: embedded runs against signed-in runs of the same block, in turn ...');
    expectOk(
      await call('PUT', '/api/v1/studio/embed/settings', { origins: ['https://customer.example.com'] }),
      'embed settings',
    );
    const secret = String(expectOk(await call('POST', '/api/v1/studio/embed/secret'), 'the embed secret').body.secret);
    const token = createSigner({ key: secret, algorithm: 'HS256' })({
      report: reportId,
      params: { code: codes[7] },
      exp: Math.floor(Date.now() / 1000) + 3600,
    });
    const block = blocks[0]!;
    const signedIn = () =>
      call('POST', `/api/v1/studio/reports/${reportId}/run`, { block, params: { code: codes[7] } });
    const embedded = () => call('POST', '/api/v1/studio/embed/run', { report_id: reportId, token, block }, {});
    expectOk(await signedIn(), 'a signed-in run');
    expectOk(await embedded(), 'an embedded run');
    const signedInMs: number[] = [];
    const embeddedMs: number[] = [];
    for (let round = 0; round < 200; round += 1) {
      signedInMs.push(expectOk(await signedIn(), 'a signed-in run').ms);
      embeddedMs.push(expectOk(await embedded(), 'an embedded run').ms);
    }
    return {
      demoRows,
      blocks,
      singleMs,
      crowdMs: crowd.map((viewer) => viewer.ms),
      crowdStatuses,
      crowdExecutions,
      signedInMs,
      embeddedMs,
    };
  } finally {
    await viewers.close();
    await server.stop();
  }
}

export function checkSharingTargets(runs: SharingRuns): TargetCheck[] {
  const p99 = percentile(runs.crowdMs, 99);
  const single = median(runs.singleMs);
  const failed = Object.entries(runs.crowdStatuses)
    .filter(([status]) => status !== '200')
    .reduce((sum, [, count]) => sum + count, 0);
  const statuses = Object.entries(runs.crowdStatuses)
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');
  const ratio = median(runs.embeddedMs) / median(runs.signedInMs);
  return [
    {
      name: `sharing: ${SHARING_TARGETS.crowd} anonymous viewers of one link at once: each query once, none fails, p99 ≤ ${SHARING_TARGETS.crowdP99VsSingle} × one viewer`,
      measured: `${runs.crowdExecutions} executions for ${runs.blocks.length} queries; ${statuses}; p99 ${p99.toFixed(0)} ms vs one viewer ${single.toFixed(0)} ms (${(p99 / single).toFixed(2)} ×)`,
      pass:
        runs.crowdExecutions === runs.blocks.length && failed === 0 && p99 <= SHARING_TARGETS.crowdP99VsSingle * single,
    },
    {
      name: `sharing: an embedded run ≤ ${SHARING_TARGETS.embedVsSignedIn} × a signed-in run of the same block, the token check included`,
      measured: `${ratio.toFixed(2)} × (${median(runs.embeddedMs).toFixed(2)} ms vs ${median(runs.signedInMs).toFixed(2)} ms, medians of ${runs.embeddedMs.length} cached runs each, in turn)`,
      pass: ratio <= SHARING_TARGETS.embedVsSignedIn,
    },
  ];
}
