import type { AgentMessage, ReportRunResult } from '@dataplatform/contract';
import type { FastifyInstance } from 'fastify';
import type { EvalQuestion } from './questions.js';

/*
 * Execution accuracy (BIRD's EX): an answer is right when its result holds the same rows as the
 * expected SQL's, in any order and with its columns in any order (a row is compared as the sorted
 * list of its values, numbers to 4 decimals, midnight timestamps as their date). A question whose
 * right answer is words is right when the agent replied in words. Run through the API as a person
 * would: a conversation per question, in one tenant.
 */

export interface EvalResult {
  id: string;
  level: EvalQuestion['level'];
  correct: boolean;
  /** What the agent answered: plan, sql, reply, or the error code. */
  outcome: string;
  repairs: number;
  tokens: number;
  ms: number;
}

function normalizeValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return String(Math.round(value * 10_000) / 10_000);
  if (typeof value === 'string') {
    if (/^-?\d+(\.\d+)?$/.test(value)) return String(Math.round(Number(value) * 10_000) / 10_000);
    const midnight = /^(\d{4}-\d{2}-\d{2})[ T]00:00:00(\.0+)?(Z|[+-]00(:?00)?)?$/.exec(value);
    return midnight ? midnight[1]! : value;
  }
  return JSON.stringify(value);
}

/** The rows as a sorted list of keys, each row's values sorted: order-free on both axes. */
export function resultKey(rows: readonly (readonly unknown[])[]): string {
  return JSON.stringify(rows.map((row) => JSON.stringify(row.map(normalizeValue).sort())).sort());
}

export async function runEvaluation(input: {
  app: FastifyInstance;
  /** A signed-in superuser's headers. */
  headers: Record<string, string>;
  questions: readonly EvalQuestion[];
  onResult?: (result: EvalResult, question: EvalQuestion) => void;
}): Promise<{ results: EvalResult[]; accuracy: number }> {
  const { app, questions } = input;
  const tenant = await app.inject({
    method: 'POST',
    url: '/api/v1/tenants/',
    headers: input.headers,
    payload: { name: `agent-eval-${Date.now()}` },
  });
  if (tenant.statusCode !== 201) throw new Error(`the evaluation's tenant could not be made: ${tenant.body}`);
  const tenantId = tenant.json<{ id: string }>().id;
  const headers = { ...input.headers, 'x-tenant-id': tenantId };

  const results: EvalResult[] = [];
  for (const question of questions) {
    const expected =
      question.expected === 'reply'
        ? undefined
        : await app.services.studioEngine.run({
            scope: { tenantId },
            source: 'demo',
            sql: question.expected.sql,
            params: {},
            shape: 'capped',
          });
    const conversation = await app.inject({ method: 'POST', url: '/api/v1/agent/conversations', headers, payload: {} });
    const conversationId = conversation.json<{ id: string }>().id;
    const started = performance.now();
    const asked = await app.inject({
      method: 'POST',
      url: `/api/v1/agent/conversations/${conversationId}/messages`,
      headers,
      payload: { text: question.question },
    });
    const ms = Math.round(performance.now() - started);
    let result: EvalResult;
    if (asked.statusCode !== 200) {
      const code = asked.json<{ code?: string }>().code ?? String(asked.statusCode);
      result = { id: question.id, level: question.level, correct: false, outcome: code, repairs: 0, tokens: 0, ms };
      if (code === 'agent_unavailable' || code === 'agent_not_configured' || code === 'rate_limited') {
        throw new Error(`the model server failed (${code}): ${asked.body}`);
      }
    } else {
      const answer = asked.json<AgentMessage>();
      let rows = answer.preview?.rows ?? [];
      // A table's preview is its first page: the whole result is read to compare it.
      if (answer.preview && answer.preview.count > rows.length) {
        const all = await app.inject({
          method: 'POST',
          url: `/api/v1/agent/conversations/${conversationId}/messages/${answer.id}/run`,
          headers,
          payload: { skip: 0, limit: 1000 },
        });
        rows = all.json<ReportRunResult>().rows;
      }
      const correct =
        expected === undefined
          ? answer.kind === 'reply'
          : answer.kind !== 'reply' && resultKey(rows) === resultKey(expected.rows);
      result = {
        id: question.id,
        level: question.level,
        correct,
        outcome: answer.kind,
        repairs: answer.repairs.length,
        tokens: answer.tokens,
        ms,
      };
    }
    results.push(result);
    input.onResult?.(result, question);
  }
  const accuracy = results.filter((result) => result.correct).length / Math.max(1, results.length);
  return { results, accuracy };
}
