import { isMap, isSeq, parseDocument, stringify } from 'yaml';
import type { AgentBlockParam } from './agent.js';
import type { ReportBlock } from './studio-reports.js';

/*
 * An agent's answer as report text: the block (one item of `blocks:`), a whole report of it, and
 * the same block added to a report someone already has. The server writes the first two; the
 * screens (and tests) merge with addBlockToReport, then save through the reports API as any edit.
 */

/** Identifier a block or parameter may take, made from free text. */
export function blockIdFrom(text: string): string {
  const id = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 50);
  return /^[a-z_]/.test(id) ? id : `block_${id}`.replace(/_+$/, '');
}

/** The block as one item of a report's `blocks:` list. */
export function blockYaml(block: ReportBlock): string {
  return stringify([block], { lineWidth: 100 });
}

/** A whole report holding only `block`, with the parameters its SQL binds. */
export function standaloneReport(input: {
  title: string;
  source: string;
  params: Record<string, AgentBlockParam>;
  block: ReportBlock;
}): string {
  const params = Object.fromEntries(
    Object.entries(input.params).map(([name, param]) => [name, { type: param.type, default: param.default }]),
  );
  return stringify(
    {
      title: input.title,
      source: input.source,
      ...(Object.keys(params).length > 0 ? { params } : {}),
      blocks: [input.block],
    },
    { lineWidth: 100 },
  );
}

/** `name`, or `name_2`, `name_3`, … the first that `taken` does not hold. */
function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n += 1) if (!taken.has(`${name}_${n}`)) return `${name}_${n}`;
}

/** Renames the `:old` placeholders of an SQL text (never a `::cast`). */
function renamePlaceholder(sql: string, from: string, to: string): string {
  return sql.replace(new RegExp(`(?<![:\\w]):${from}(?![\\w])`, 'g'), `:${to}`);
}

/**
 * Appends an agent's block to a report's YAML text, keeping the text's comments and layout: the
 * block's parameters are declared (renamed where the report already has one of that name, and the
 * block's SQL with them), and the block id is made unique. Throws when the text is not a report
 * (a mapping with a `blocks` list); the reports API checks the result as any save.
 */
export function addBlockToReport(
  text: string,
  addition: { block: ReportBlock; params: Record<string, AgentBlockParam> },
): string {
  const document = parseDocument(text);
  if (document.errors.length > 0 || !isMap(document.contents)) throw new Error('The report text does not parse');
  const blocks = document.get('blocks');
  if (!isSeq(blocks)) throw new Error('The report has no blocks list');
  const existingParams = document.get('params');
  const paramNames = new Set<string>(
    isMap(existingParams)
      ? existingParams.items.map((pair) => String((pair.key as { value?: unknown })?.value ?? pair.key))
      : [],
  );
  const blockIds = new Set<string>(
    blocks.items.flatMap((item) => {
      const id = isMap(item) ? item.get('id') : undefined;
      return typeof id === 'string' ? [id] : [];
    }),
  );
  const block = JSON.parse(JSON.stringify(addition.block)) as ReportBlock;
  block.id = freeName(block.id, blockIds);
  for (const [name, param] of Object.entries(addition.params)) {
    const free = freeName(name, paramNames);
    paramNames.add(free);
    if (free !== name) {
      for (const kind of ['kpi', 'chart', 'table'] as const) {
        const part = block[kind];
        if (part) part.sql = renamePlaceholder(part.sql, name, free);
      }
    }
    document.setIn(['params', free], document.createNode({ type: param.type, default: param.default }));
  }
  blocks.add(document.createNode(block));
  return document.toString({ lineWidth: 100 });
}
