import { isMap, isScalar, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { z } from 'zod';
import { StudioSourceKindSchema } from './studio-sources.js';

/**
 * A Studio report is a YAML document (STUDIO design, "The model"): title, description, source,
 * cache, parameters and blocks (kpi, chart, table, text). The server validates every save and every
 * preview with this schema, the editor shows the same problems at the same lines, and the OpenAPI
 * document describes it. Problems point at a line and a column of the text.
 */

/** The longest report text accepted (characters): a report is a page of YAML, not a data file. */
export const REPORT_DEFINITION_MAX_CHARS = 100_000;
/** Blocks of one report at most. */
export const REPORT_BLOCKS_MAX = 50;
/** The longest SQL of one block or one parameter's options (characters). */
export const REPORT_SQL_MAX_CHARS = 20_000;
/** Rows of a table block's page at most. */
export const REPORT_PAGE_SIZE_MAX = 500;
/** The longest a result may be cached. */
export const REPORT_CACHE_MAX_SECONDS = 24 * 3600;

const IdentifierSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, 'Use lower-case letters, digits and _, starting with a letter (40 at most)');

const SqlSchema = z.string().trim().min(1, 'Write the SQL of this block').max(REPORT_SQL_MAX_CHARS);

const CACHE_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/** `30s`, `10m`, `1h`: how long a result may be reused. */
export const ReportCacheSchema = z
  .string()
  .regex(/^\d{1,5}[smh]$/, 'Write a duration such as 30s, 10m or 1h')
  .refine(
    (value) => Number(value.slice(0, -1)) * CACHE_UNITS[value.slice(-1)]! <= REPORT_CACHE_MAX_SECONDS,
    `A result may be cached for ${REPORT_CACHE_MAX_SECONDS / 3600} hours at most`,
  );

/** The seconds a cache duration stands for. */
export function cacheSeconds(value: string | undefined): number {
  if (value === undefined) return 0;
  return Number(value.slice(0, -1)) * CACHE_UNITS[value.slice(-1)]!;
}

const ParamValueSchema = z.union([z.string().max(1000), z.number(), z.boolean()]);

export const ReportParamSchema = z
  .strictObject({
    label: z.string().trim().min(1).max(100),
    type: z.enum(['text', 'number', 'date', 'select', 'boolean']),
    default: ParamValueSchema.optional(),
    /** For `select`: the choices, or a query whose first column gives them. */
    options: z.union([z.array(z.union([z.string().max(200), z.number()])).max(1000), SqlSchema]).optional(),
  })
  .superRefine((param, context) => {
    if (param.type === 'select' && param.options === undefined) {
      context.addIssue({ code: 'custom', path: ['options'], message: 'A select parameter needs its options' });
    }
    if (param.type !== 'select' && param.options !== undefined) {
      context.addIssue({ code: 'custom', path: ['options'], message: 'Only a select parameter has options' });
    }
  });

export const KpiBlockSchema = z.strictObject({
  sql: SqlSchema,
  /** The column of the first row to show. */
  value: z.string().min(1).max(100),
  label: z.string().max(100).optional(),
  format: z.enum(['number', 'currency', 'percent']).optional(),
});

export const ChartBlockSchema = z.strictObject({
  sql: SqlSchema,
  /** A Vega-Lite specification without its data: the block's rows are the data. */
  spec: z.record(z.string(), z.unknown()).refine((spec) => !('data' in spec) && !('datasets' in spec), {
    message: 'Leave out data: the rows of the query are the chart’s data',
  }),
});

export const TableBlockSchema = z.strictObject({
  sql: SqlSchema,
  page_size: z.number().int().min(1).max(REPORT_PAGE_SIZE_MAX).optional(),
});

export const ReportBlockSchema = z
  .strictObject({
    id: IdentifierSchema,
    title: z.string().max(200).optional(),
    kpi: KpiBlockSchema.optional(),
    chart: ChartBlockSchema.optional(),
    table: TableBlockSchema.optional(),
    /** Markdown. */
    text: z.string().max(20_000).optional(),
  })
  .refine(
    (block) => [block.kpi, block.chart, block.table, block.text].filter((kind) => kind !== undefined).length === 1,
    {
      message: 'A block is exactly one of kpi, chart, table or text',
    },
  );

export const ReportDefinitionSchema = z
  .strictObject({
    title: z.string().trim().min(1).max(200),
    description: z.string().max(2000).optional(),
    source: StudioSourceKindSchema,
    cache: ReportCacheSchema.optional(),
    params: z.record(IdentifierSchema, ReportParamSchema).optional(),
    blocks: z.array(ReportBlockSchema).min(1, 'A report has at least one block').max(REPORT_BLOCKS_MAX),
  })
  .superRefine((report, context) => {
    const seen = new Set<string>();
    report.blocks.forEach((block, index) => {
      if (seen.has(block.id)) {
        context.addIssue({
          code: 'custom',
          path: ['blocks', index, 'id'],
          message: `Another block is called ${block.id}`,
        });
      }
      seen.add(block.id);
      const sql = block.kpi?.sql ?? block.chart?.sql ?? block.table?.sql;
      const kind = block.kpi ? 'kpi' : block.chart ? 'chart' : 'table';
      for (const name of sql ? placeholderNames(sql) : []) {
        if (!report.params || !(name in report.params)) {
          context.addIssue({
            code: 'custom',
            path: ['blocks', index, kind, 'sql'],
            message: `:${name} is not one of the report's params`,
          });
        }
      }
    });
  });
export type ReportDefinition = z.infer<typeof ReportDefinitionSchema>;

/** `:name` placeholders of a query, outside quoted text and comments, `::` casts aside. */
export function placeholderNames(sql: string): string[] {
  const names = new Set<string>();
  const stripped = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\//g, ' ');
  for (const match of stripped.matchAll(/(?<!:):([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(match[1]!);
  return [...names];
}

/** One problem of a report text, where the editor shows it (lines and columns from 1). */
export interface ReportProblem {
  line: number;
  column: number;
  message: string;
  /** Where in the document: `blocks.2.chart.sql`; empty for the whole text. */
  path: string;
}

export type ParsedReport = { ok: true; definition: ReportDefinition } | { ok: false; problems: ReportProblem[] };

/**
 * Reads a report's YAML and checks it: the definition, or every problem with its line and column.
 * Aliases are limited (a "billion laughs" document is refused) and the text's length is bounded.
 */
export function parseReportDefinition(text: string): ParsedReport {
  if (text.length > REPORT_DEFINITION_MAX_CHARS) {
    return {
      ok: false,
      problems: [
        { line: 1, column: 1, path: '', message: `A report is at most ${REPORT_DEFINITION_MAX_CHARS} characters` },
      ],
    };
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => {
    const position = lineCounter.linePos(offset);
    return { line: position.line, column: position.col };
  };
  if (document.errors.length > 0) {
    return {
      ok: false,
      problems: document.errors.map((error) => ({
        ...at(error.pos[0]),
        path: '',
        message: error.message.split('\n')[0]!,
      })),
    };
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 50 });
  } catch (error) {
    return { ok: false, problems: [{ line: 1, column: 1, path: '', message: (error as Error).message }] };
  }
  const parsed = ReportDefinitionSchema.safeParse(value);
  if (parsed.success) return { ok: true, definition: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.flatMap((issue) => {
      const path = issue.path.map(String);
      // An unknown field is shown at its own key, not at the object holding it.
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((key) => ({
          ...at(offsetOf(document.contents, [...path, key])),
          path: [...path, key].join('.'),
          message: `Unknown field: ${key}`,
        }));
      }
      return [{ ...at(offsetOf(document.contents, path)), path: path.join('.'), message: issue.message }];
    }),
  };
}

/** Where the deepest existing node on `path` starts (its key, for a key that is there). */
function offsetOf(root: unknown, path: string[]): number {
  let node = root as YamlNode | null;
  let offset = node?.range?.[0] ?? 0;
  for (const segment of path) {
    if (!node || typeof node !== 'object' || !('items' in node)) break;
    const items = (node as { items: unknown[] }).items;
    let next: YamlNode | null;
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === segment);
      if (!pair) break;
      offset = (pair.key as YamlNode).range?.[0] ?? offset;
      next = (pair.value as YamlNode | null) ?? null;
    } else {
      next = (items[Number(segment)] as YamlNode | undefined) ?? null;
      offset = next?.range?.[0] ?? offset;
    }
    node = next;
  }
  return offset;
}
