// No zod here (decision 030): a screen that offers these choices (the guided builder) does not load zod.

export const AGENT_AGGREGATES = ['count', 'count_distinct', 'sum', 'avg', 'min', 'max', 'median'] as const;
export const AGENT_GRAINS = ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export const AGENT_FILTER_OPS = [
  '=',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'in',
  'not_in',
  'between',
  'contains',
  'is_null',
  'not_null',
] as const;
export const AGENT_CHARTS = ['kpi', 'bar', 'line', 'area', 'point', 'table'] as const;
export type AgentChart = (typeof AGENT_CHARTS)[number];

/** A question's longest text: a question, not a document. */
export const AGENT_QUESTION_MAX = 4_000;
export const AGENT_TITLE_MAX = 200;
/** Most measures, dimensions, filters and sort keys a plan may have. */
export const AGENT_PLAN_PARTS_MAX = 8;
/** Most values an `in` filter may list. */
export const AGENT_IN_VALUES_MAX = 50;
/** Most rows a plan's `limit` may ask for (a table pages beyond it). */
export const AGENT_LIMIT_MAX = 10_000;
/** Rows of a preview sent with an answer. */
export const AGENT_PREVIEW_ROWS = 50;

/** A result column's name: what `as` must match, so it is a plain SQL identifier. */
export const AGENT_ALIAS = /^[a-z_][a-z0-9_]{0,62}$/;

export type ColumnClass = 'number' | 'time' | 'boolean' | 'text';

/**
 * What kind of values a column holds, from the type DuckDB or PostgreSQL reports: the plan compiler
 * and the guided builder read a column the same way (which aggregates and grains it takes). Here,
 * beside the other constants without zod, so the builder's first load does not carry the schemas.
 */
export function columnClass(type: string): ColumnClass {
  const t = type.toLowerCase();
  if (/^(date|time|timestamp|timestamptz|interval)\b|^timestamp/.test(t)) return 'time';
  if (/^bool/.test(t)) return 'boolean';
  if (
    /^(tinyint|smallint|integer|int|bigint|hugeint|utinyint|usmallint|uinteger|ubigint|uhugeint|float|double|real|decimal|numeric|int2|int4|int8|float4|float8|double precision)\b/.test(
      t,
    )
  )
    return 'number';
  return 'text';
}
