import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { REPORT_BLOCK_KINDS, REPORT_KPI_FORMATS, REPORT_PARAM_TYPES, REPORT_SOURCES } from '@dataplatform/contract';

// The keys of each mapping of a report definition, as the contract's ReportDefinitionSchema has them.
const KEYS: Record<string, readonly [string, string][]> = {
  top: [
    ['title', 'The report’s title'],
    ['description', 'A sentence under the title'],
    ['source', REPORT_SOURCES.join(' | ')],
    ['cache', 'How long a result is reused: 30s, 10m, 1h'],
    ['params', 'Parameters, by name'],
    ['blocks', 'The blocks, in order'],
  ],
  block: [
    ['id', 'The block’s name'],
    ['title', 'Shown above the block'],
    ...REPORT_BLOCK_KINDS.map((kind): [string, string] => [kind, 'block kind']),
  ],
  kpi: [
    ['sql', 'One query; the first row’s value'],
    ['value', 'The column of the figure'],
    ['format', REPORT_KPI_FORMATS.join(' | ')],
    ['label', 'Under the figure'],
  ],
  chart: [
    ['sql', 'The query whose rows are the chart’s data'],
    ['spec', 'Vega-Lite, without data'],
  ],
  table: [
    ['sql', 'The query, paged on the server'],
    ['page_size', 'Rows a page'],
  ],
  param: [
    ['label', 'The input’s label'],
    ['type', REPORT_PARAM_TYPES.join(' | ')],
    ['default', 'The value before anyone chooses'],
    ['options', 'A select’s values, or SQL'],
  ],
  spec: [
    ['mark', 'bar, line, point, area, …'],
    ['encoding', 'x, y, color, …'],
    ['title', 'The chart’s title'],
    ['layer', 'Charts drawn over each other'],
  ],
  encoding: [
    ['x', 'Horizontal position'],
    ['y', 'Vertical position'],
    ['color', 'Colour by a field'],
    ['theta', 'Angle (arc marks)'],
    ['tooltip', 'Shown on hover'],
  ],
  channel: [
    ['field', 'A column of the query'],
    ['type', 'nominal | ordinal | quantitative | temporal'],
    ['sort', 'ascending, descending, -y, …'],
    ['aggregate', 'sum, mean, median, …'],
    ['title', 'The axis or legend title'],
  ],
};

const VALUES: Record<string, readonly string[]> = {
  source: REPORT_SOURCES,
  type: [...REPORT_PARAM_TYPES, 'nominal', 'ordinal', 'quantitative', 'temporal'],
  format: REPORT_KPI_FORMATS,
  mark: ['bar', 'line', 'point', 'area', 'arc', 'rect', 'rule', 'tick', 'boxplot'],
};

interface Line {
  indent: number;
  key: string | undefined;
  item: boolean;
}

function describe(text: string): Line {
  const match = /^(\s*)(-\s+)?([A-Za-z_][\w-]*)?\s*:?/.exec(text)!;
  return { indent: match[1]!.length + (match[2]?.length ?? 0), key: match[3], item: match[2] !== undefined };
}

/** The nearest line above `lineNumber` whose key is left of `column`, and whether a list item was on the way. */
function parentOf(
  context: CompletionContext,
  lineNumber: number,
  column: number,
  isItem: boolean,
): { number: number; line: Line; inItem: boolean } | undefined {
  let inItem = isItem;
  for (let number = lineNumber - 1; number >= 1; number -= 1) {
    const text = context.state.doc.line(number).text;
    if (text.trim() === '' || text.trim().startsWith('#')) continue;
    const line = describe(text);
    // An item of the same sequence (`- id: …` whose first key is in line with ours).
    if (line.item && line.indent === column) inItem = true;
    if (line.indent < column && line.key !== undefined) return { number, line, inItem };
  }
  return undefined;
}

/**
 * The kind of mapping the cursor's line belongs to, from the keys it is nested under: `blocks:`
 * holds blocks, `kpi:` a KPI, a key under `params:` a parameter; at the left margin the top level.
 */
function mappingAt(context: CompletionContext, lineNumber: number, column: number, isItem: boolean): string {
  if (column === 0) return 'top';
  const parent = parentOf(context, lineNumber, column, isItem);
  if (!parent) return 'top';
  const key = parent.line.key!;
  if (parent.inItem) return key === 'blocks' ? 'block' : 'none';
  if (['kpi', 'chart', 'table', 'spec', 'encoding'].includes(key)) return key;
  const grandparent = parentOf(context, parent.number, parent.line.indent, parent.line.item);
  if (grandparent?.line.key === 'params' && !grandparent.inItem) return 'param';
  if (grandparent?.line.key === 'encoding') return 'channel';
  return 'none';
}

/**
 * Completions from the report schema: the keys a mapping may hold (by where the cursor is), the
 * values of `source`, `type`, `format` and `mark`, and the source's table and column names.
 */
export function completeDefinition(context: CompletionContext, names: readonly Completion[]): CompletionResult | null {
  const line = context.state.doc.lineAt(context.pos);
  const before = line.text.slice(0, context.pos - line.from);

  const value = /(?:^|[{,]\s*|^\s*-\s+|^\s*)([A-Za-z_]+):\s*["']?([\w-]*)$/.exec(before);
  if (value && VALUES[value[1]!]) {
    return {
      from: context.pos - value[2]!.length,
      options: VALUES[value[1]!]!.map((option) => ({ label: option, type: 'enum' })),
      validFor: /^[\w-]*$/,
    };
  }

  const key = /^(\s*)(-\s+)?([A-Za-z_]*)$/.exec(before);
  if (key) {
    const indent = key[1]!.length + (key[2]?.length ?? 0);
    const kind = mappingAt(context, line.number, indent, key[2] !== undefined);
    const keys = KEYS[kind];
    if (!keys) return null;
    return {
      from: context.pos - key[3]!.length,
      options: keys.map(([label, detail]) => ({
        label,
        detail,
        apply: `${label}: `,
        type: (REPORT_BLOCK_KINDS as readonly string[]).includes(label) ? 'class' : 'property',
      })),
      validFor: /^\w*$/,
    };
  }

  // Inside a value (SQL, say): the source's tables and columns, once a word is begun or asked for.
  const word = context.matchBefore(/\w+/);
  if (names.length > 0 && (word || context.explicit)) {
    return { from: word?.from ?? context.pos, options: [...names], validFor: /^\w*$/ };
  }
  return null;
}
