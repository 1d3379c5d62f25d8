import {
  AGENT_PREVIEW_ROWS,
  AgentModelAnswerSchema,
  type AgentBlock,
  type AgentCompile,
  type AgentModelAnswer,
  type AgentPlanAnswer,
  type AgentPreview,
} from '@dataplatform/contract';
import { AppError } from '../../../lib/errors.js';
import type { ParamValue, SourceId, StudioEngine, StudioScope, TableSummary } from '../engine/engine.js';
import { answerBlock } from './answer-blocks.js';
import { compilePlan, PlanProblem, type CompiledParam } from './plan-compiler.js';

/** A problem's text as it goes back to the model and into a refusal: a line, not a dump. */
const PROBLEM_MAX = 500;

/** What an answer keeps besides its text: how to run its block again, and how it was reached. */
export interface AnswerPayload {
  source?: SourceId;
  plan?: AgentPlanAnswer;
  sql?: string;
  values?: Record<string, ParamValue>;
  block?: AgentBlock;
  repairs: { attempt: number; problem: string }[];
  /** The model's JSON as it was accepted, sent back as the assistant's turn in a follow-up. */
  answer?: AgentModelAnswer;
}

/** A check an answer failed: its message goes back to the model. */
export class Rejected extends Error {
  override name = 'Rejected';
}

export const clip = (text: string) => (text.length > PROBLEM_MAX ? `${text.slice(0, PROBLEM_MAX)}…` : text);

/** The model's text as JSON: a fenced ```json block is taken from inside its fence. */
function parseJson(content: string): unknown {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  return JSON.parse(fenced ? fenced[1]! : content);
}

/**
 * Keeps the keys the answer's kind has: a strict-schema answer carries every key, the ones another
 * kind uses set to null, and a plan's empty lists may come as null.
 */
function normalizeAnswer(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const answer = value as Record<string, unknown>;
  const pick = (keys: string[]) =>
    Object.fromEntries(keys.filter((key) => answer[key] !== undefined).map((key) => [key, answer[key]]));
  switch (answer.kind) {
    case 'plan': {
      const plan = pick([
        'kind',
        'title',
        'source',
        'table',
        'measures',
        'dimensions',
        'filters',
        'sort',
        'limit',
        'chart',
      ]);
      for (const key of ['measures', 'dimensions', 'filters', 'sort']) plan[key] ??= [];
      plan.limit ??= null;
      return plan;
    }
    case 'sql':
      return pick(['kind', 'title', 'source', 'sql', 'chart', 'x', 'y']);
    case 'reply':
      return pick(['kind', 'text']);
    default:
      return answer;
  }
}

/** The first problems of a schema check, in one line. */
function schemaProblems(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || 'answer'}: ${issue.message}`)
    .join('; ');
}

/**
 * How the agent checks what it shows: a plan compiled, previewed and made a block (the guided
 * builder's compile too), and a model's answer checked as a person's would be.
 */
export function createAnswerChecks(engine: Pick<StudioEngine, 'listSources' | 'listTables' | 'run'>) {
  /** A source's tables, or a problem naming the ones the tenant has. */
  async function tablesOf(scope: StudioScope, source: SourceId): Promise<TableSummary[]> {
    const sources = await engine.listSources(scope);
    if (!sources.some((candidate) => candidate.id === source)) {
      throw new PlanProblem(
        `There is no source "${source}" here; the sources are: ${sources.map((candidate) => candidate.id).join(', ')}.`,
      );
    }
    return engine.listTables(scope, source);
  }

  /** Runs a block's SQL for its preview: a table's first page with the whole count, else every row up to the cap. */
  async function preview(
    scope: StudioScope,
    source: SourceId,
    sql: string,
    values: Record<string, ParamValue>,
    table: boolean,
    signal?: AbortSignal,
  ): Promise<AgentPreview> {
    const result = await engine.run({
      scope,
      source,
      sql,
      params: values,
      shape: table ? 'page' : 'capped',
      ...(table ? { skip: 0, limit: AGENT_PREVIEW_ROWS } : {}),
      ...(signal ? { signal } : {}),
    });
    return { columns: result.columns, rows: result.rows, count: result.count, elapsed_ms: result.elapsed_ms };
  }

  const paramsOf = (params: Record<string, CompiledParam>) => params;

  /** A plan compiled, previewed and made a block; PlanProblem or the engine's refusal when it cannot be. */
  async function compileAndPreview(
    scope: StudioScope,
    source: SourceId,
    plan: AgentPlanAnswer | AgentCompile['plan'],
    signal?: AbortSignal,
  ) {
    const tables = await tablesOf(scope, source);
    const compiled = compilePlan(source, tables, plan);
    const result = await preview(scope, source, compiled.sql, compiled.values, compiled.blockKind === 'table', signal);
    const block = answerBlock({
      title: plan.title,
      source,
      chart: plan.chart,
      sql: compiled.sql,
      columns: result.columns,
      encoding: compiled.encoding,
      params: paramsOf(compiled.params),
    });
    return { compiled, preview: result, block };
  }

  /**
   * One answer of the model checked as a person's would be: the schema, then the compile (a plan)
   * or the guard (SQL, inside the engine), then a preview run, then the block as a report holds it.
   * The model's fault is a Rejected; a source that is down is the engine's error, thrown as it is.
   */
  async function check(
    scope: StudioScope,
    reply: { content: string; truncated: boolean },
    signal: AbortSignal,
  ): Promise<{ answer: AgentModelAnswer; payload: Omit<AnswerPayload, 'repairs'>; preview?: AgentPreview }> {
    if (reply.truncated) throw new Rejected('The answer was too long: answer with one short JSON object.');
    let json: unknown;
    try {
      json = parseJson(reply.content);
    } catch {
      throw new Rejected('The answer is not JSON: answer with exactly one JSON object.');
    }
    const parsed = AgentModelAnswerSchema.safeParse(normalizeAnswer(json));
    if (!parsed.success)
      throw new Rejected(`The answer does not fit the schema: ${schemaProblems(parsed.error.issues)}`);
    const answer = parsed.data;
    if (answer.kind === 'reply') return { answer, payload: { answer } };
    try {
      if (answer.kind === 'plan') {
        const { compiled, preview: result, block } = await compileAndPreview(scope, answer.source, answer, signal);
        return {
          answer,
          payload: { answer, source: answer.source, plan: answer, sql: compiled.sql, values: compiled.values, block },
          preview: result,
        };
      }
      await tablesOf(scope, answer.source);
      const result = await preview(scope, answer.source, answer.sql, {}, answer.chart === 'table', signal);
      const block = answerBlock({
        title: answer.title,
        source: answer.source,
        chart: answer.chart,
        sql: answer.sql,
        columns: result.columns,
        encoding: { x: answer.x, y: answer.y },
        params: {},
      });
      return {
        answer,
        payload: { answer, source: answer.source, sql: answer.sql, values: {}, block },
        preview: result,
      };
    } catch (error) {
      if (error instanceof PlanProblem) throw new Rejected(error.message);
      // What the guard and the engine refuse is the answer's fault: its message is the repair.
      if (error instanceof AppError && error.statusCode === 422) {
        throw new Rejected(typeof error.detail === 'string' ? error.detail : error.message);
      }
      if (error instanceof AppError && error.errorCode === 'source_not_found') throw new Rejected(error.message);
      throw error;
    }
  }

  return { compileAndPreview, check, preview };
}
