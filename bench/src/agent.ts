import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startScriptedModel } from '@dataplatform/server/test/scripted-model.js';
import { createBenchDatabase, createBenchUser, type BenchDatabase } from './fixture.js';
import type { TargetCheck } from './report.js';
import type { BenchSettings } from './settings.js';
import { median } from './stats.js';
import { startTarget } from './target-process.js';

/**
 * The agent's own time (issue 56, "Performance"): the real server in a process of its own, its
 * model a scripted OpenAI-compatible server in this process answering at once, so what is timed is
 * everything but a model's thinking: the grounding, the prompt, the checks, the compile and the
 * preview over the demo source.
 */

export const AGENT_TARGETS = {
  /** p50 of an answer's round trip with the model answering at once, a preview included. */
  ownTimeMs: 300,
  /** From the model writing its first piece of text to the client reading it as a `delta` event. */
  firstTokenMs: 100,
  /** p50 of a compile's round trip less its preview query's engine time. */
  compileMs: 50,
} as const;

export interface AgentRuns {
  demoRows: number;
  rounds: number;
  ownMs: number[];
  firstTokenMs: number[];
  compileMs: number[];
  compilePreviewMs: number[];
}

/** The plans the scripted model answers, in turn: a bar, a line over months, a KPI, a filtered table. */
const PLANS = [
  {
    title: 'Median rate by payer',
    table: 'rates',
    measures: [
      { agg: 'median', column: 'negotiated_rate', as: 'median_rate' },
      { agg: 'count', column: null, as: 'rates' },
    ],
    dimensions: [{ column: 'payer', grain: null }],
    filters: [{ column: 'billing_code', op: '=', value: '99213' }],
    sort: [{ by: 'median_rate', direction: 'desc' }],
    limit: null,
    chart: 'bar',
  },
  {
    title: 'Rates expiring by month',
    table: 'rates',
    measures: [{ agg: 'count', column: null, as: 'rates' }],
    dimensions: [{ column: 'expiration_date', grain: 'month' }],
    filters: [{ column: 'state', op: 'in', value: ['CA', 'NY'] }],
    sort: [],
    limit: null,
    chart: 'line',
  },
  {
    title: 'Average HMO rate',
    table: 'rates',
    measures: [{ agg: 'avg', column: 'negotiated_rate', as: 'avg_rate' }],
    dimensions: [],
    filters: [{ column: 'plan_type', op: '=', value: 'HMO' }],
    sort: [],
    limit: null,
    chart: 'kpi',
  },
  {
    title: 'Hospital charges in Texas',
    table: 'hospital_charges',
    measures: [{ agg: 'avg', column: 'gross_charge', as: 'avg_gross' }],
    dimensions: [{ column: 'hospital', grain: null }],
    filters: [{ column: 'state', op: '=', value: 'TX' }],
    sort: [{ by: 'avg_gross', direction: 'desc' }],
    limit: 20,
    chart: 'table',
  },
] as const;

export async function runAgent(context: {
  settings: BenchSettings;
  track: (database: BenchDatabase) => void;
  out: (line: string) => void;
}): Promise<AgentRuns> {
  const { settings, out } = context;
  const { demoRows } = settings.studio;
  const rounds = settings.studio.rounds * 3;
  const database = await createBenchDatabase(settings.databaseUrl, '_agent');
  context.track(database);
  const admin = await createBenchUser(database.url, { superuser: true });
  const model = await startScriptedModel();
  const dataDir = settings.studio.dataDir ?? mkdtempSync(path.join(tmpdir(), 'dp-bench-agent-'));
  const server = startTarget('app-server', {
    scenario: 'agent',
    env: {
      BENCH_TARGET_DATABASE_URL: database.url,
      BENCH_TARGET_ENV: JSON.stringify({
        DATA_DIR: dataDir,
        STUDIO_DEMO_ROWS: String(demoRows),
        AGENT_BASE_URL: model.url,
        AGENT_MODEL: 'scripted',
        AGENT_TOKENS_PER_TENANT_PER_DAY: '0',
      }),
    },
  });
  try {
    const { port } = await server.next('ready');
    const base = `http://127.0.0.1:${port}`;
    const tenantResponse = await fetch(`${base}/api/v1/tenants/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Agent bench' }),
    });
    const tenant = (await tenantResponse.json()) as { id: string };
    const headers = {
      authorization: `Bearer ${admin.token}`,
      'x-tenant-id': tenant.id,
      'content-type': 'application/json',
    };
    const post = async (url: string, body: unknown, extra: Record<string, string> = {}) => {
      const started = performance.now();
      const response = await fetch(`${base}${url}`, {
        method: 'POST',
        headers: { ...headers, ...extra },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`agent: ${url} answered ${response.status}: ${text.slice(0, 300)}`);
      return { ms: performance.now() - started, body: text };
    };
    const conversation = async () =>
      (JSON.parse((await post('/api/v1/agent/conversations', {})).body) as { id: string }).id;
    const ask = async (index: number, extra: Record<string, string> = {}) => {
      model.script({ content: { kind: 'plan', source: 'demo', ...PLANS[index % PLANS.length] } });
      return post(`/api/v1/agent/conversations/${await conversation()}/messages`, { text: 'rates' }, extra);
    };

    out(`agent: the first answer (the server generates ${demoRows} demo rates if it has none) ...`);
    for (let index = 0; index < PLANS.length; index += 1) await ask(index);

    out(`agent: ${rounds} answers, ${rounds} streamed answers and ${rounds} compiles ...`);
    const ownMs: number[] = [];
    for (let index = 0; index < rounds; index += 1) ownMs.push((await ask(index)).ms);

    // The first token: the client reads the stream itself, and stamps the first `delta` event.
    const firstTokenMs: number[] = [];
    for (let index = 0; index < rounds; index += 1) {
      model.script({ content: { kind: 'plan', source: 'demo', ...PLANS[index % PLANS.length] }, chunk: 24 });
      const id = await conversation();
      const response = await fetch(`${base}/api/v1/agent/conversations/${id}/messages`, {
        method: 'POST',
        headers: { ...headers, accept: 'text/event-stream' },
        body: JSON.stringify({ text: 'rates' }),
      });
      const reader = response.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
      const decoder = new TextDecoder();
      let seen = '';
      let firstDeltaAt: number | undefined;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        seen += decoder.decode(value, { stream: true });
        if (firstDeltaAt === undefined && seen.includes('event: delta')) firstDeltaAt = performance.now();
      }
      const sentAt = model.requests.at(-1)?.firstContentAt;
      if (firstDeltaAt === undefined || sentAt === undefined || !seen.includes('event: answer')) {
        throw new Error(`agent: a streamed answer had no delta or no answer: ${seen.slice(-300)}`);
      }
      firstTokenMs.push(firstDeltaAt - sentAt);
    }

    const compileMs: number[] = [];
    const compilePreviewMs: number[] = [];
    for (let index = 0; index < rounds; index += 1) {
      const { kind: _kind, ...plan } = { kind: 'plan', ...PLANS[index % PLANS.length] };
      const { ms, body } = await post('/api/v1/agent/plan/compile', { source: 'demo', plan });
      compileMs.push(ms);
      compilePreviewMs.push((JSON.parse(body) as { preview: { elapsed_ms: number } }).preview.elapsed_ms);
    }
    return { demoRows, rounds, ownMs, firstTokenMs, compileMs, compilePreviewMs };
  } finally {
    await server.stop();
    await model.close();
  }
}

const ms = (values: number[]) => `${median(values).toFixed(1)} ms`;
const span = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} ms`;

export function checkAgentTargets(runs: AgentRuns): TargetCheck[] {
  const overhead = runs.compileMs.map((value, index) => value - runs.compilePreviewMs[index]!);
  return [
    {
      name: `agent: own time per answer with a preview (scripted model answering at once) p50 ≤ ${AGENT_TARGETS.ownTimeMs} ms`,
      measured: `${ms(runs.ownMs)} [${span(runs.ownMs)}] over ${runs.rounds} answers on ${runs.demoRows} demo rates`,
      pass: median(runs.ownMs) <= AGENT_TARGETS.ownTimeMs,
    },
    {
      name: `agent: the first streamed token reaches the client ≤ ${AGENT_TARGETS.firstTokenMs} ms after the model sends it`,
      measured: `${ms(runs.firstTokenMs)} p50, ${Math.max(...runs.firstTokenMs).toFixed(1)} ms at most, over ${runs.rounds} streams`,
      pass: Math.max(...runs.firstTokenMs) <= AGENT_TARGETS.firstTokenMs,
    },
    {
      name: `agent: POST /agent/plan/compile p50 ≤ ${AGENT_TARGETS.compileMs} ms plus the preview's query`,
      measured: `${ms(overhead)} beyond the query (round trip ${ms(runs.compileMs)}, query ${ms(runs.compilePreviewMs)})`,
      pass: median(overhead) <= AGENT_TARGETS.compileMs,
    },
  ];
}
