import {
  AGENT_AGGREGATES,
  AGENT_CHARTS,
  AGENT_FILTER_OPS,
  AGENT_GRAINS,
  AGENT_LIMIT_MAX,
  columnClass,
} from '@dataplatform/contract';
import type { SourceId, StudioEngine, StudioScope, TableSummary } from '../engine/engine.js';
import { quoteIdentifier } from '../engine/sql-text.js';
import type { ChatMessage } from './model-client.js';

/*
 * What the model is told (docs/decisions/061-the-agent.md): the caller's tenant's sources only —
 * tables, columns, types and a few values of short text columns — the report schema in short, and
 * the open report. Never rows beyond those samples, never a URL, a key or another tenant's name.
 * The answer's JSON schema lists the real names as enums, so a decoder that enforces it cannot
 * invent one, and the server checks them all again anyway.
 */

/** A source as the agent sees it: its tables, with columns and sample values. */
export interface GroundedSource {
  id: SourceId;
  tables: (TableSummary & { samples?: Record<string, string[]> })[];
}

/** Tables described column by column; past it, the least related ones are named only. */
const DETAILED_TABLES_MAX = 12;
/** Distinct values of a short text column sent as samples. */
const SAMPLES_PER_COLUMN = 20;
const SAMPLE_LENGTH_MAX = 60;
const SAMPLED_COLUMNS_PER_TABLE = 8;
/** Sampled values are the data's, reused a while across questions (the result cache, per tenant). */
const SAMPLE_CACHE_SECONDS = 600;

const words = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 2),
  );

/** How many of the question's words a table's name and columns share (schema linking). */
function relatedness(table: TableSummary, question: Set<string>): number {
  const names = words([table.name, ...table.columns.map((column) => column.name)].join(' '));
  let score = 0;
  for (const word of question) {
    for (const name of names) if (name.startsWith(word) || word.startsWith(name)) score += 1;
  }
  return score;
}

/**
 * The tenant's sources and tables, the ones most related to the question first; sample values of
 * their short text columns unless the tenant turned samples off. A source that cannot be listed now
 * (a tenant database down) is left out rather than failing the question.
 */
export async function groundSources(input: {
  engine: Pick<StudioEngine, 'listSources' | 'listTables' | 'run'>;
  scope: StudioScope;
  question: string;
  samples: boolean;
  signal?: AbortSignal | undefined;
}): Promise<{ sources: GroundedSource[]; namedOnly: { source: SourceId; table: string }[] }> {
  const { engine, scope } = input;
  const question = words(input.question);
  const listed = await engine.listSources(scope);
  const sources: GroundedSource[] = [];
  const candidates: { source: SourceId; table: TableSummary; score: number }[] = [];
  for (const source of listed) {
    const tables = await engine.listTables(scope, source.id).catch(() => null);
    if (!tables) continue;
    sources.push({ id: source.id, tables: [] });
    for (const table of tables) candidates.push({ source: source.id, table, score: relatedness(table, question) });
  }
  candidates.sort((a, b) => b.score - a.score);
  const detailed = candidates.slice(0, DETAILED_TABLES_MAX);
  const namedOnly = candidates
    .slice(DETAILED_TABLES_MAX)
    .map((entry) => ({ source: entry.source, table: entry.table.name }));
  for (const entry of detailed) {
    const table: GroundedSource['tables'][number] = { ...entry.table };
    if (input.samples) table.samples = await sampleValues(engine, scope, entry.source, entry.table, input.signal);
    sources.find((source) => source.id === entry.source)!.tables.push(table);
  }
  return { sources: sources.filter((source) => source.tables.length > 0), namedOnly };
}

async function sampleValues(
  engine: Pick<StudioEngine, 'run'>,
  scope: StudioScope,
  source: SourceId,
  table: TableSummary,
  signal: AbortSignal | undefined,
): Promise<Record<string, string[]>> {
  const samples: Record<string, string[]> = {};
  const textColumns = table.columns
    .filter((column) => columnClass(column.type) === 'text')
    .slice(0, SAMPLED_COLUMNS_PER_TABLE);
  const from =
    source === 'tenant' && table.name.includes('.')
      ? table.name.split('.').map(quoteIdentifier).join('.')
      : quoteIdentifier(table.name);
  await Promise.all(
    textColumns.map(async (column) => {
      const name = quoteIdentifier(column.name);
      try {
        const result = await engine.run({
          scope,
          source,
          sql: `SELECT DISTINCT ${name} FROM ${from} WHERE ${name} IS NOT NULL AND length(${name}) <= ${SAMPLE_LENGTH_MAX} ORDER BY 1 LIMIT ${SAMPLES_PER_COLUMN}`,
          params: {},
          shape: 'capped',
          cacheKey: `agent-samples:${source}:${table.name}:${column.name}`,
          cacheTtlSeconds: SAMPLE_CACHE_SECONDS,
          ...(signal ? { signal } : {}),
        });
        const values = result.rows.map((row) => String(row[0]));
        if (values.length > 0) samples[column.name] = values;
      } catch {
        // A column that cannot be sampled (a type length() refuses) is described without values.
      }
    }),
  );
  return samples;
}

const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });
const enumOf = (values: readonly string[]) => ({ type: 'string', enum: [...new Set(values)] });

/**
 * The JSON schema the model's answer must fit: one object whose `kind` says which of plan, sql or
 * reply it is (OpenAI's strict mode wants an object at the root and every key present, so the keys
 * another kind does not use are null). Every source, table and column is an enum of real names.
 */
export function answerJsonSchema(sources: readonly GroundedSource[]): Record<string, unknown> {
  const sourceIds = sources.map((source) => source.id);
  const tables = sources.flatMap((source) => source.tables.map((table) => table.name));
  const columns = sources.flatMap((source) =>
    source.tables.flatMap((table) => table.columns.map((column) => column.name)),
  );
  // Without any table, a plan cannot be made: only a reply (or nothing to choose from) fits.
  const source = sourceIds.length > 0 ? nullable(enumOf(sourceIds)) : { type: 'null' };
  const table = tables.length > 0 ? nullable(enumOf(tables)) : { type: 'null' };
  const column = columns.length > 0 ? enumOf(columns) : { type: 'string', maxLength: 0 };
  const scalar = { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] };
  const object = (properties: Record<string, unknown>) => ({
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties),
    properties,
  });
  return object({
    kind: enumOf(['plan', 'sql', 'reply']),
    title: nullable({ type: 'string' }),
    text: nullable({ type: 'string' }),
    source,
    table,
    measures: nullable({
      type: 'array',
      items: object({
        agg: enumOf(AGENT_AGGREGATES),
        column: nullable(column),
        as: { type: 'string', pattern: '^[a-z_][a-z0-9_]{0,62}$' },
      }),
    }),
    dimensions: nullable({ type: 'array', items: object({ column, grain: nullable(enumOf(AGENT_GRAINS)) }) }),
    filters: nullable({
      type: 'array',
      items: object({
        column,
        op: enumOf(AGENT_FILTER_OPS),
        value: { anyOf: [scalar, { type: 'array', items: scalar }, { type: 'null' }] },
      }),
    }),
    sort: nullable({ type: 'array', items: object({ by: { type: 'string' }, direction: enumOf(['asc', 'desc']) }) }),
    limit: nullable({ type: 'integer', minimum: 1, maximum: AGENT_LIMIT_MAX }),
    chart: nullable(enumOf(AGENT_CHARTS)),
    sql: nullable({ type: 'string' }),
    x: nullable({ type: 'string' }),
    y: nullable({ type: 'string' }),
  });
}

const RULES = `You answer questions about one organisation's data by choosing what to compute, never by inventing data.
Answer with exactly one JSON object, of one of these kinds:
- "plan" (preferred): {"kind":"plan","title","source","table","measures":[{"agg","column","as"}],"dimensions":[{"column","grain"}],"filters":[{"column","op","value"}],"sort":[{"by","direction"}],"limit","chart"}. The server writes the SQL itself.
  agg: count (column null for every row), count_distinct, sum, avg, min, max, median. grain (date columns only): null, hour, day, week, month, quarter, year.
  op: =, !=, <, <=, >, >=, in, not_in, between (value is [first, last]), contains, is_null, not_null (value null). Dates are written YYYY-MM-DD.
  "as" is a lowercase name of the result column. sort "by" is a dimension's column or a measure's "as".
  chart: kpi (one measure, no dimension), bar, line (over time), area, point, table.
- "sql": {"kind":"sql","title","source","sql","chart","x","y"} only when a plan cannot say it: one read-only SELECT over the tables below, in DuckDB's dialect for the demo and extract sources, PostgreSQL's for tenant.
- "reply": {"kind":"reply","text"} to ask which of several things the person means, or to say why the data cannot answer (no table holds it, or the question asks why something happened).
Use only the sources, tables and columns listed below, with their exact spelling. Keys another kind does not use are null.`;

/** The report schema, in short: what a block the answer becomes may be. */
const REPORT_SCHEMA = `A report is YAML: title, source (demo, tenant or extract), optional cache and params (name: {type: text|number|date|select|boolean, default}), and blocks, each with an id and exactly one of kpi {sql, value}, chart {sql, spec (Vega-Lite without data)}, table {sql, page_size} or text (Markdown). SQL names a parameter as :name.`;

/** The system message: the rules, the tenant's tables, and the open report. */
export function systemPrompt(input: {
  sources: readonly GroundedSource[];
  namedOnly: readonly { source: SourceId; table: string }[];
  report?: { text: string } | undefined;
}): string {
  const parts = [RULES, '', 'The sources and their tables:'];
  if (input.sources.length === 0) parts.push('(none: the organisation has no tables yet)');
  for (const source of input.sources) {
    parts.push(`Source "${source.id}":`);
    for (const table of source.tables) {
      const columns = table.columns.map((column) => {
        const values = table.samples?.[column.name];
        return `${column.name} ${column.type}${values ? ` (e.g. ${values.map((value) => JSON.stringify(value)).join(', ')})` : ''}`;
      });
      parts.push(`- ${table.name}: ${columns.join('; ')}`);
    }
  }
  if (input.namedOnly.length > 0) {
    parts.push(
      `Other tables, named only (ask the person to name one if it is needed): ${input.namedOnly.map((entry) => `${entry.source}.${entry.table}`).join(', ')}`,
    );
  }
  if (input.report) {
    parts.push(
      '',
      REPORT_SCHEMA,
      'The report the person has open (YAML); your block goes at its end, its filters become parameters:',
      input.report.text,
    );
  }
  return parts.join('\n');
}

/** The messages of one ask: the system's, the conversation so far, the question. */
export function promptMessages(system: string, history: readonly ChatMessage[], question: string): ChatMessage[] {
  return [{ role: 'system', content: system }, ...history, { role: 'user', content: question }];
}
