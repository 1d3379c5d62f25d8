import { columnClass, isIsoDate, type AgentChart, type AgentPlanBody, type ColumnClass } from '@dataplatform/contract';
import type { ParamValue, SourceId, TableSummary } from '../engine/engine.js';
import { quoteIdentifier } from '../engine/sql-text.js';

/*
 * A plan (table, measures, dimensions, filters, sort, limit, chart) becomes SQL here, written by us:
 * every identifier is one of the source's real names, quoted; every value is a parameter the report
 * declares, bound by the engine, never spliced into the text. What a plan cannot say is a
 * PlanProblem, whose message goes back to the model as a repair (or to the builder's screen).
 */

export class PlanProblem extends Error {
  override name = 'PlanProblem';
}

/** A declared report parameter a compiled query binds: its type and the value the plan gave. */
export interface CompiledParam {
  type: 'text' | 'number' | 'date' | 'boolean';
  default: string | number | boolean;
}

export interface CompiledPlan {
  sql: string;
  /** The parameters the SQL names, declared with the plan's values as defaults. */
  params: Record<string, CompiledParam>;
  /** The values to run it with (the defaults). */
  values: Record<string, ParamValue>;
  /** What the block is: a KPI (one row), a chart or a table. */
  blockKind: 'kpi' | 'chart' | 'table';
  /** The chart's mark and fields, for the Vega-Lite spec drawn from the result's columns. */
  encoding: { x?: string; y?: string; color?: string };
}

const dialectOf = (source: SourceId): 'duckdb' | 'postgres' => (source === 'tenant' ? 'postgres' : 'duckdb');

/** A table's name as SQL: `schema.name` of a tenant database is two quoted parts. */
function tableSql(source: SourceId, name: string): string {
  if (source === 'tenant' && name.includes('.')) {
    const [schema, ...rest] = name.split('.');
    return `${quoteIdentifier(schema!)}.${quoteIdentifier(rest.join('.'))}`;
  }
  return quoteIdentifier(name);
}

/** A parameter name made of the column's, so a report's parameter bar reads well. */
function paramBase(column: string): string {
  const base = column
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  return /^[a-z_]/.test(base) ? base : `f_${base}`;
}

/**
 * Compiles a plan over one source's tables. Throws PlanProblem naming what is wrong in words a
 * model (or a person) can act on: an unknown table or column, an aggregate a column's type cannot
 * take, a chart the plan's shape cannot draw.
 */
export function compilePlan(source: SourceId, tables: readonly TableSummary[], plan: AgentPlanBody): CompiledPlan {
  const dialect = dialectOf(source);
  const table = tables.find((candidate) => candidate.name === plan.table);
  if (!table) {
    throw new PlanProblem(
      `There is no table "${plan.table}" in the ${source} source. Its tables are: ${tables.map((t) => t.name).join(', ') || 'none'}.`,
    );
  }
  const columns = new Map(table.columns.map((column) => [column.name, column]));
  const columnOf = (name: string, role: string) => {
    const column = columns.get(name);
    if (!column) {
      throw new PlanProblem(
        `The table "${table.name}" has no column "${name}" (${role}). Its columns are: ${table.columns.map((c) => c.name).join(', ')}.`,
      );
    }
    return { name: column.name, sql: quoteIdentifier(column.name), kind: columnClass(column.type) };
  };

  if (plan.measures.length === 0 && plan.dimensions.length === 0) {
    throw new PlanProblem('A plan needs at least one measure or one dimension.');
  }

  const select: string[] = [];
  const outputNames = new Set<string>();
  const addOutput = (name: string) => {
    if (outputNames.has(name))
      throw new PlanProblem(`Two results are named "${name}": give each measure its own "as".`);
    outputNames.add(name);
  };

  const dimensionNames: string[] = [];
  for (const dimension of plan.dimensions) {
    const column = columnOf(dimension.column, 'a dimension');
    let expression = column.sql;
    if (dimension.grain !== null) {
      if (column.kind !== 'time') {
        throw new PlanProblem(
          `"${column.name}" is not a date or time, so it has no ${dimension.grain} grain: use grain null.`,
        );
      }
      expression = `date_trunc('${dimension.grain}', ${column.sql})`;
    }
    addOutput(column.name);
    dimensionNames.push(column.name);
    select.push(`${expression} AS ${quoteIdentifier(column.name)}`);
  }

  const measureNames: string[] = [];
  for (const measure of plan.measures) {
    let expression: string;
    if (measure.column === null) {
      if (measure.agg !== 'count') throw new PlanProblem(`${measure.agg} needs a column; only count may have none.`);
      expression = 'count(*)';
    } else {
      const column = columnOf(measure.column, `the measure ${measure.as}`);
      const numeric = column.kind === 'number';
      if ((measure.agg === 'sum' || measure.agg === 'avg') && !numeric) {
        throw new PlanProblem(
          `${measure.agg} needs a number, and "${column.name}" is not one: use count or count_distinct.`,
        );
      }
      if (measure.agg === 'median' && !numeric && column.kind !== 'time') {
        throw new PlanProblem(`median needs a number or a date, and "${column.name}" is neither.`);
      }
      expression =
        measure.agg === 'count_distinct'
          ? `count(DISTINCT ${column.sql})`
          : measure.agg === 'median' && dialect === 'postgres'
            ? `percentile_cont(0.5) WITHIN GROUP (ORDER BY ${column.sql})`
            : `${measure.agg}(${column.sql})`;
    }
    addOutput(measure.as);
    measureNames.push(measure.as);
    select.push(`${expression} AS ${quoteIdentifier(measure.as)}`);
  }

  const params: Record<string, CompiledParam> = {};
  const values: Record<string, ParamValue> = {};
  const where: string[] = [];
  /** Declares a parameter for one value, typed by its column, and gives its bound SQL. */
  const bind = (column: { name: string; kind: ColumnClass }, value: unknown): string => {
    const typed = typedValue(column, value);
    let name = paramBase(column.name);
    for (let n = 2; Object.hasOwn(params, name); n += 1) name = `${paramBase(column.name)}_${n}`;
    params[name] = typed;
    values[name] = typed.default;
    // A date parameter is text in YYYY-MM-DD: cast, so both engines compare it as a date.
    if (typed.type === 'date') return `CAST(:${name} AS DATE)`;
    return `:${name}`;
  };
  for (const filter of plan.filters) {
    const column = columnOf(filter.column, 'a filter');
    const { op, value } = filter;
    if (op === 'is_null' || op === 'not_null') {
      where.push(`${column.sql} IS ${op === 'is_null' ? '' : 'NOT '}NULL`);
      continue;
    }
    if (op === 'in' || op === 'not_in') {
      const list = Array.isArray(value) ? value : [value];
      if (list.length === 0 || list.some((item) => item === null)) {
        throw new PlanProblem(`${op} on "${column.name}" needs a list of values.`);
      }
      where.push(
        `${column.sql} ${op === 'in' ? 'IN' : 'NOT IN'} (${list.map((item) => bind(column, item)).join(', ')})`,
      );
      continue;
    }
    if (op === 'between') {
      if (!Array.isArray(value) || value.length !== 2) {
        throw new PlanProblem(`between on "${column.name}" needs a list of two values, the first and the last.`);
      }
      where.push(`${column.sql} BETWEEN ${bind(column, value[0])} AND ${bind(column, value[1])}`);
      continue;
    }
    if (Array.isArray(value) || value === null) {
      throw new PlanProblem(`${op} on "${column.name}" needs one value, not ${value === null ? 'null' : 'a list'}.`);
    }
    if (op === 'contains') {
      where.push(`strpos(lower(CAST(${column.sql} AS TEXT)), lower(${bind({ ...column, kind: 'text' }, value)})) > 0`);
      continue;
    }
    where.push(`${column.sql} ${op === '!=' ? '<>' : op} ${bind(column, value)}`);
  }

  const order: string[] = [];
  for (const sort of plan.sort) {
    if (!outputNames.has(sort.by)) {
      throw new PlanProblem(
        `Sort by "${sort.by}" names no result: sort by a dimension's column or a measure's "as" (${[...outputNames].join(', ')}).`,
      );
    }
    order.push(`${quoteIdentifier(sort.by)} ${sort.direction === 'desc' ? 'DESC' : 'ASC'}`);
  }
  // A time series reads left to right: without a sort of its own, it is ordered by its dimensions.
  if (order.length === 0 && dimensionNames.length > 0 && measureNames.length > 0) {
    order.push(...dimensionNames.map((name) => quoteIdentifier(name)));
  }

  const blockKind = blockKindOf(plan.chart, dimensionNames.length, measureNames.length);
  const lines = [`SELECT ${select.join(', ')}`, `FROM ${tableSql(source, table.name)}`];
  if (where.length > 0) lines.push(`WHERE ${where.join(' AND ')}`);
  if (measureNames.length > 0 && dimensionNames.length > 0) {
    lines.push(`GROUP BY ${dimensionNames.map((_, index) => index + 1).join(', ')}`);
  } else if (measureNames.length === 0) {
    lines[0] = `SELECT DISTINCT ${select.join(', ')}`;
  }
  if (order.length > 0) lines.push(`ORDER BY ${order.join(', ')}`);
  if (plan.limit !== null) lines.push(`LIMIT ${plan.limit}`);

  return {
    sql: lines.join('\n'),
    params,
    values,
    blockKind,
    encoding: {
      ...(dimensionNames[0] !== undefined ? { x: dimensionNames[0] } : {}),
      ...(measureNames[0] !== undefined ? { y: measureNames[0] } : {}),
      ...(dimensionNames[1] !== undefined ? { color: dimensionNames[1] } : {}),
    },
  };
}

function blockKindOf(chart: AgentChart, dimensions: number, measures: number): CompiledPlan['blockKind'] {
  if (chart === 'table') return 'table';
  if (chart === 'kpi') {
    if (dimensions > 0 || measures === 0) {
      throw new PlanProblem('A KPI is one number: give it one measure and no dimension, or choose another chart.');
    }
    return 'kpi';
  }
  if (dimensions === 0 || measures === 0) {
    throw new PlanProblem(`A ${chart} chart needs a dimension and a measure: add one, or choose kpi or table.`);
  }
  return 'chart';
}

/** A filter's value as its column's type wants it, or a PlanProblem. */
function typedValue(column: { name: string; kind: ColumnClass }, value: unknown): CompiledParam {
  switch (column.kind) {
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number)) {
        throw new PlanProblem(`"${column.name}" holds numbers, and ${JSON.stringify(value)} is not one.`);
      }
      return { type: 'number', default: number };
    }
    case 'time': {
      const text = typeof value === 'number' ? String(value) : value;
      // A year alone stands for its first day.
      const date = typeof text === 'string' && /^\d{4}$/.test(text) ? `${text}-01-01` : text;
      if (typeof date !== 'string' || !isIsoDate(date)) {
        throw new PlanProblem(`"${column.name}" holds dates: write ${JSON.stringify(value)} as YYYY-MM-DD.`);
      }
      return { type: 'date', default: date };
    }
    case 'boolean':
      if (typeof value === 'boolean') return { type: 'boolean', default: value };
      if (value === 'true' || value === 'false') return { type: 'boolean', default: value === 'true' };
      throw new PlanProblem(`"${column.name}" holds true or false, and ${JSON.stringify(value)} is neither.`);
    case 'text':
      if (typeof value === 'string' || typeof value === 'number') return { type: 'text', default: String(value) };
      throw new PlanProblem(`"${column.name}" holds text, and ${JSON.stringify(value)} is not text.`);
  }
}
