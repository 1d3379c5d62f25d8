import {
  blockIdFrom,
  blockYaml,
  columnClass,
  parseReportDefinition,
  sharedReportBlock,
  standaloneReport,
  type AgentBlock,
  type AgentBlockParam,
  type AgentChart,
  type ReportBlock,
  type SharedBlock,
} from '@dataplatform/contract';
import type { SourceId } from '../engine/engine.js';
import { PlanProblem } from './plan-compiler.js';

/** A Vega-Lite field name: dots and brackets would be read as a path into the row. */
const field = (name: string) => name.replace(/[.[\]\\]/g, (char) => `\\${char}`);

/**
 * The Vega-Lite spec of a chart over a result's columns: the dimension on x (a category's bars
 * laid horizontally, so long names stay readable on a phone), the first measure on y, a second
 * dimension as colour. It holds no data: the block's rows are its data.
 */
export function chartSpec(
  chart: Exclude<AgentChart, 'kpi' | 'table'>,
  columns: readonly { name: string; type: string }[],
  encoding: { x?: string | null | undefined; y?: string | null | undefined; color?: string | undefined },
): Record<string, unknown> {
  const byName = new Map(columns.map((column) => [column.name, column]));
  const x = encoding.x ? byName.get(encoding.x) : columns[0];
  if (!x) throw new PlanProblem(`The result has no column "${encoding.x}" for the x axis.`);
  const y = encoding.y
    ? byName.get(encoding.y)
    : columns.find((column) => column !== x && columnClass(column.type) === 'number');
  if (!y) {
    throw new PlanProblem(
      encoding.y
        ? `The result has no column "${encoding.y}" for the y axis.`
        : 'A chart needs a numeric column to draw.',
    );
  }
  if (columnClass(y.type) !== 'number')
    throw new PlanProblem(`"${y.name}" is not a number, so it cannot be drawn on y.`);
  const xClass = columnClass(x.type);
  const measure = { field: field(y.name), type: 'quantitative', title: y.name };
  const color =
    encoding.color && byName.has(encoding.color) ? { color: { field: field(encoding.color), type: 'nominal' } } : {};
  if (chart === 'bar' && xClass !== 'time') {
    return {
      mark: { type: 'bar', tooltip: true },
      encoding: { y: { field: field(x.name), type: 'nominal', sort: '-x', title: x.name }, x: measure, ...color },
    };
  }
  const dimension = {
    field: field(x.name),
    type: xClass === 'time' ? 'temporal' : xClass === 'number' ? 'quantitative' : 'nominal',
    title: x.name,
  };
  return { mark: { type: chart, tooltip: true }, encoding: { x: dimension, y: measure, ...color } };
}

/**
 * An answer's block, its YAML and a report of it alone, checked by the report schema as any saved
 * report is: a block that would not save is a problem here, before anyone sees it.
 */
export function answerBlock(input: {
  title: string;
  source: SourceId;
  chart: AgentChart;
  sql: string;
  columns: readonly { name: string; type: string }[];
  encoding: { x?: string | null | undefined; y?: string | null | undefined; color?: string | undefined };
  params: Record<string, AgentBlockParam>;
}): AgentBlock & { drawn: SharedBlock } {
  const { title, chart, sql, columns } = input;
  const id = blockIdFrom(title);
  let block: ReportBlock;
  let kind: AgentBlock['kind'];
  if (chart === 'table') {
    block = { id, title, table: { sql, page_size: 50 } };
    kind = 'table';
  } else if (chart === 'kpi') {
    const value = input.encoding.y
      ? columns.find((column) => column.name === input.encoding.y)
      : (columns.find((column) => columnClass(column.type) === 'number') ?? columns[0]);
    if (!value) throw new PlanProblem(`The result has no column "${input.encoding.y}" for the KPI.`);
    const integer = /int/i.test(value.type);
    block = { id, title, kpi: { sql, value: value.name, format: integer ? 'integer' : 'number', label: title } };
    kind = 'kpi';
  } else {
    block = { id, title, chart: { sql, spec: chartSpec(chart, columns, input.encoding) } };
    kind = 'chart';
  }
  const report = standaloneReport({ title, source: input.source, params: input.params, block });
  const parsed = parseReportDefinition(report);
  if (!parsed.ok) {
    throw new PlanProblem(
      `The block does not fit a report: ${parsed.problems.map((problem) => problem.msg).join('; ')}`,
    );
  }
  // An answer's block is never text: there is no Markdown to render.
  const drawn = sharedReportBlock(block, () => '');
  return { yaml: blockYaml(block), kind, source: input.source, params: input.params, report, drawn };
}
