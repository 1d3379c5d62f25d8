import {
  AGENT_ALIAS,
  columnClass,
  type AgentChart,
  type AgentCompile,
  type AgentCompiled,
  type AgentPlanBody,
  type ColumnClass,
  type SharedBlock,
} from '@dataplatform/contract';

/** What a person picked in the guided builder, as the fields hold it. */
export interface BuilderPicks {
  source: string;
  table: string;
  /** `column` '' counts rows (count only). */
  measures: { agg: AgentPlanBody['measures'][number]['agg']; column: string }[];
  /** `grain` '' groups by the value itself. */
  dimensions: { column: string; grain: '' | NonNullable<AgentPlanBody['dimensions'][number]['grain']> }[];
  /** `value` as typed: a list is separated by commas, `between` takes two. */
  filters: { column: string; op: AgentPlanBody['filters'][number]['op']; value: string }[];
  chart: AgentChart;
  title: string;
}

/** A result name from free text: lowercase letters, digits and _ (AGENT_ALIAS). */
function alias(text: string, taken: Set<string>): string {
  let name = text
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 50);
  if (!/^[a-z_]/.test(name)) name = `m_${name}`;
  let free = name;
  for (let n = 2; taken.has(free); n += 1) free = `${name}_${n}`;
  taken.add(free);
  return AGENT_ALIAS.test(free) ? free : `m_${taken.size}`;
}

/** The charts a plan can be drawn as: a KPI needs one measure and no dimension. */
export function chartsFor(picks: Pick<BuilderPicks, 'measures' | 'dimensions'>): AgentChart[] {
  if (picks.dimensions.length === 0) return picks.measures.length === 1 ? ['kpi', 'table'] : ['table'];
  return ['bar', 'line', 'area', 'point', 'table'];
}

/** A typed filter value as the plan carries it: numbers for number columns, lists split at commas. */
function filterValue(op: BuilderPicks['filters'][number]['op'], text: string, kind: ColumnClass) {
  if (op === 'is_null' || op === 'not_null') return null;
  const one = (part: string): string | number | boolean => {
    const trimmed = part.trim();
    if (kind === 'number' && trimmed !== '' && Number.isFinite(Number(trimmed))) return Number(trimmed);
    if (kind === 'boolean' && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
    return trimmed;
  };
  if (op === 'in' || op === 'not_in' || op === 'between') return text.split(',').map(one);
  return one(text);
}

/** The default title: what is measured, by what. */
export function defaultTitle(picks: BuilderPicks): string {
  const measures = picks.measures.map((measure) =>
    measure.column === '' ? 'Rows' : `${measure.agg.replace('_', ' ')} of ${measure.column}`,
  );
  const by = picks.dimensions.map((dimension) =>
    dimension.grain ? `${dimension.column} (${dimension.grain})` : dimension.column,
  );
  const what = measures.length > 0 ? measures.join(', ') : picks.table;
  const text = by.length > 0 ? `${what} by ${by.join(', ')}` : what;
  return (text.charAt(0).toUpperCase() + text.slice(1)).slice(0, 200);
}

/** The compile request of the picks, or undefined while they are not a plan yet. */
export function compileRequest(picks: BuilderPicks, types: ReadonlyMap<string, string>): AgentCompile | undefined {
  if (picks.source === '' || picks.table === '') return undefined;
  if (picks.measures.length === 0 && picks.dimensions.length === 0) return undefined;
  const taken = new Set<string>(picks.dimensions.map((dimension) => dimension.column));
  const measures = picks.measures.map((measure) => ({
    agg: measure.column === '' ? ('count' as const) : measure.agg,
    column: measure.column === '' ? null : measure.column,
    as: alias(measure.column === '' ? 'rows' : `${measure.agg}_${measure.column}`, taken),
  }));
  const filters = picks.filters
    .filter((filter) => filter.column !== '')
    .map((filter) => ({
      column: filter.column,
      op: filter.op,
      value: filterValue(filter.op, filter.value, columnClass(types.get(filter.column) ?? '')),
    }));
  const charts = chartsFor(picks);
  return {
    source: picks.source as AgentCompile['source'],
    plan: {
      title: picks.title.trim() || defaultTitle(picks),
      table: picks.table,
      measures,
      dimensions: picks.dimensions.map((dimension) => ({ column: dimension.column, grain: dimension.grain || null })),
      filters,
      sort: [],
      limit: picks.dimensions.length > 0 && picks.chart !== 'line' && picks.chart !== 'area' ? 100 : null,
      chart: charts.includes(picks.chart) ? picks.chart : charts[0]!,
    },
  };
}

/**
 * The builder's compiled plan as a block to draw: the server's drawing of it (its chart's spec, its
 * KPI's field) with every preview row on one page, so nothing is worked out here again.
 */
export function previewBlock(compiled: AgentCompiled): SharedBlock {
  const { drawn } = compiled.block;
  return {
    ...drawn,
    id: 'preview',
    ...(drawn.table ? { table: { page_size: Math.max(1, compiled.preview.rows.length) } } : {}),
  };
}
