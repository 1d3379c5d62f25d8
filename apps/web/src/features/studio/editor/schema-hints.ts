import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { ensureSyntaxTree, syntaxTree } from '@codemirror/language';
import type { EditorState } from '@codemirror/state';
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

type Tree = ReturnType<typeof syntaxTree>;
type SyntaxNode = ReturnType<Tree['resolveInner']>;

/** How long a completion may wait for the YAML parser to reach the cursor (it usually has). */
const PARSE_BUDGET_MS = 50;

function columnOf(state: EditorState, pos: number): number {
  return pos - state.doc.lineAt(pos).from;
}

/** The column where an item's content starts: `- id: a` → that of `id`. */
function contentColumn(state: EditorState, item: SyntaxNode): number {
  let pos = item.from;
  while (pos < item.to && /[\s-]/.test(state.sliceDoc(pos, pos + 1))) pos += 1;
  return columnOf(state, pos);
}

/**
 * From `node` up the syntax tree: the pair whose key starts left of `column` (the key a line indented
 * to `column` is nested under), and whether a sequence item whose content starts at `column` was on
 * the way (that line continues the item's mapping).
 */
function enclosingPair(
  state: EditorState,
  node: SyntaxNode | null,
  column: number,
  isItem: boolean,
): { pair: SyntaxNode; key: string; inItem: boolean } | undefined {
  let inItem = isItem;
  for (let at = node; at; at = at.parent) {
    if (at.name === 'Item' && contentColumn(state, at) === column) inItem = true;
    const key = at.name === 'Pair' ? at.getChild('Key') : null;
    if (key && columnOf(state, at.from) < column) return { pair: at, key: state.sliceDoc(key.from, key.to), inItem };
  }
  return undefined;
}

/** The innermost node that ends at or covers the last thing written before `pos`, comments aside. */
function nodeBefore(state: EditorState, tree: Tree, pos: number): SyntaxNode | null {
  let end = pos;
  for (;;) {
    while (end > 0 && /\s/.test(state.sliceDoc(end - 1, end))) end -= 1;
    if (end === 0) return null;
    const node = tree.resolveInner(end, -1);
    if (node.name !== 'Comment') return node;
    end = node.from;
  }
}

/**
 * The kind of mapping a key typed at `keyPos` (on a line indented to `column`, after `- ` when
 * `isItem`) goes into, from the keys the YAML syntax tree has it nested under: `blocks:` holds
 * blocks, `kpi:` a KPI, a key under `params:` a parameter; at the left margin the top level.
 */
function mappingAt(state: EditorState, keyPos: number, column: number, isItem: boolean): string {
  if (column === 0) return 'top';
  const tree = ensureSyntaxTree(state, keyPos, PARSE_BUDGET_MS) ?? syntaxTree(state);
  const parent = enclosingPair(state, nodeBefore(state, tree, keyPos), column, isItem);
  if (!parent) return 'top';
  if (parent.inItem) return parent.key === 'blocks' ? 'block' : 'none';
  if (['kpi', 'chart', 'table', 'spec', 'encoding'].includes(parent.key)) return parent.key;
  const grandparent = enclosingPair(state, parent.pair.parent, columnOf(state, parent.pair.from), false);
  if (grandparent?.key === 'params' && !grandparent.inItem) return 'param';
  if (grandparent?.key === 'encoding') return 'channel';
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
    const kind = mappingAt(context.state, context.pos - key[3]!.length, indent, key[2] !== undefined);
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
