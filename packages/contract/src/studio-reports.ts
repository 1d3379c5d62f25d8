import './zod-config.js';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { ErrorCode } from './errors.js';
import { pageOf, PaginationQuerySchema, ValidationErrorItemSchema } from './common.js';
import {
  REPORT_BLOCK_KINDS,
  REPORT_BLOCKS_MAX,
  REPORT_CACHE_MAX_SECONDS,
  REPORT_CHART_SPEC_DEPTH_MAX,
  REPORT_DEFINITION_MAX,
  REPORT_DESCRIPTION_MAX,
  REPORT_KPI_FORMATS,
  REPORT_PAGE_SIZE_DEFAULT,
  REPORT_PAGE_SIZE_MAX,
  REPORT_PARAM_OPTIONS_MAX,
  REPORT_PARAM_TYPES,
  REPORT_PARAM_VALUE_MAX,
  REPORT_PARAMS_MAX,
  REPORT_SLUG_MAX,
  REPORT_SORT_MAX,
  REPORT_SOURCES,
  REPORT_SQL_MAX,
  REPORT_TEXT_MAX,
  REPORT_TITLE_MAX,
  RESERVED_REPORT_SLUGS,
  reportMessages,
} from './studio-reports-constants.js';

export * from './studio-reports-constants.js';

// ---------------------------------------------------------------------------------------------
// The report definition: the YAML document an author writes (STUDIO-REPORT-1).
// Every object is strict, so a misspelt key is a problem at its line rather than silently ignored.
// ---------------------------------------------------------------------------------------------

const SqlSchema = z.string().trim().min(1, 'SQL is required').max(REPORT_SQL_MAX);
/** A name a block or a parameter is known by (`:name` in SQL, `block` in a run). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const BLOCK_ID = /^[A-Za-z_][A-Za-z0-9_-]{0,62}$/;

const DURATION = /^(\d{1,6})([smhd])$/;
const DURATION_UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** Seconds a `cache` duration (`30s`, `10m`, `1h`, `1d`) stands for; no cache: 0. */
export function cacheSeconds(cache: string | undefined): number {
  if (cache === undefined) return 0;
  const match = DURATION.exec(cache);
  if (!match) return 0;
  return Number(match[1]) * DURATION_UNIT_SECONDS[match[2]!]!;
}

const CacheSchema = z
  .string()
  .regex(DURATION, reportMessages.cacheInvalid)
  .refine((value) => cacheSeconds(value) <= REPORT_CACHE_MAX_SECONDS, reportMessages.cacheInvalid);

const ParamScalarSchema = z.union([z.string().max(REPORT_PARAM_VALUE_MAX), z.number(), z.boolean(), z.null()]);
const OptionSchema = z.union([z.string().max(REPORT_PARAM_VALUE_MAX), z.number()]);

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Whether `value` is a real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

export const ReportParamSchema = z
  .strictObject({
    label: z.string().max(REPORT_TITLE_MAX).optional(),
    type: z.enum(REPORT_PARAM_TYPES),
    default: ParamScalarSchema.optional(),
    /** For `select`: the values, or one SQL query whose first column gives them. */
    options: z.union([z.array(OptionSchema).min(1).max(REPORT_PARAM_OPTIONS_MAX), SqlSchema]).optional(),
  })
  .superRefine((param, context) => {
    if (param.type === 'select' && param.options === undefined) {
      context.addIssue({ code: 'custom', message: reportMessages.paramOptionsRequired, path: ['options'] });
    }
    if (param.type !== 'select' && param.options !== undefined) {
      context.addIssue({ code: 'custom', message: reportMessages.paramOptionsOnlySelect, path: ['options'] });
    }
    if (param.default !== undefined && param.default !== null && coerceParamValue(param, param.default).error) {
      context.addIssue({ code: 'custom', message: reportMessages.paramDefaultType, path: ['default'] });
    }
  });
export type ReportParam = z.infer<typeof ReportParamSchema>;

/**
 * A value a run gives a parameter, as the parameter's type wants it: numbers as numbers, dates as
 * YYYY-MM-DD text, a select's value as the option it names. YAML and query strings write `99213`
 * and `"99213"` alike, so a number stands for its text where text is wanted and the other way round.
 * The value is bound, never spliced into SQL: text that looks like SQL is only text.
 */
export function coerceParamValue(
  param: ReportParam,
  value: unknown,
): { value: string | number | boolean | null; error?: undefined } | { error: string } {
  if (value === null) return { value: null };
  switch (param.type) {
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof number === 'number' && Number.isFinite(number)
        ? { value: number }
        : { error: reportMessages.paramNumber };
    }
    case 'boolean':
      if (typeof value === 'boolean') return { value };
      if (value === 'true' || value === 'false') return { value: value === 'true' };
      return { error: reportMessages.paramBoolean };
    case 'date':
      return typeof value === 'string' && isIsoDate(value) ? { value } : { error: reportMessages.paramDate };
    case 'text': {
      const text = typeof value === 'number' ? String(value) : value;
      return typeof text === 'string' && text.length <= REPORT_PARAM_VALUE_MAX
        ? { value: text }
        : { error: reportMessages.paramText };
    }
    case 'select': {
      if (typeof value !== 'string' && typeof value !== 'number') return { error: reportMessages.paramText };
      if (Array.isArray(param.options)) {
        const option = param.options.find((candidate) => String(candidate) === String(value));
        return option === undefined ? { error: reportMessages.paramNotAnOption } : { value: option };
      }
      const text = String(value);
      return text.length <= REPORT_PARAM_VALUE_MAX ? { value: text } : { error: reportMessages.paramText };
    }
  }
}

export const KpiBlockSchema = z.strictObject({
  sql: SqlSchema,
  /** The result column whose first row is the figure. */
  value: z.string().min(1).max(200),
  format: z.enum(REPORT_KPI_FORMATS).optional(),
  label: z.string().max(REPORT_TITLE_MAX).optional(),
});

const VIEW_KEYS = ['mark', 'layer', 'concat', 'hconcat', 'vconcat', 'facet', 'repeat'];

/**
 * Problems of a Vega-Lite object: it must draw something, hold no data of its own (anywhere: a
 * layer's `data` or a lookup's `from.data` would fetch what the browser is told to), and stay
 * shallow. Walked without recursion, so a hostile nesting cannot exhaust the stack.
 */
function chartSpecProblems(spec: Record<string, unknown>): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  if (!VIEW_KEYS.some((key) => key in spec)) problems.push({ path: [], message: reportMessages.chartMark });
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value: spec, path: [] }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (path.length > REPORT_CHART_SPEC_DEPTH_MAX) {
      problems.push({ path, message: reportMessages.chartTooDeep });
      break;
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => pending.push({ value: item, path: [...path, index] }));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'data' || key === 'datasets')
          problems.push({ path: [...path, key], message: reportMessages.chartData });
        else pending.push({ value: child, path: [...path, key] });
      }
    }
  }
  return problems;
}

export const ChartBlockSchema = z.strictObject({
  sql: SqlSchema,
  /** A Vega-Lite specification without `data`: the query's rows are its data. */
  spec: z.record(z.string(), z.unknown()).superRefine((spec, context) => {
    for (const problem of chartSpecProblems(spec)) {
      context.addIssue({ code: 'custom', message: problem.message, path: problem.path });
    }
  }),
});

export const TableBlockSchema = z.strictObject({
  sql: SqlSchema,
  page_size: z.number().int().min(1).max(REPORT_PAGE_SIZE_MAX).optional(),
});

export const ReportBlockSchema = z
  .strictObject({
    id: z.string().regex(BLOCK_ID, 'A block id is a name of letters, digits, _ and -'),
    title: z.string().max(REPORT_TITLE_MAX).optional(),
    kpi: KpiBlockSchema.optional(),
    chart: ChartBlockSchema.optional(),
    table: TableBlockSchema.optional(),
    /** Markdown. */
    text: z.string().max(REPORT_TEXT_MAX).optional(),
  })
  .superRefine((block, context) => {
    const kinds = REPORT_BLOCK_KINDS.filter((kind) => block[kind] !== undefined);
    if (kinds.length !== 1) context.addIssue({ code: 'custom', message: reportMessages.blockKind, path: [] });
  });
export type ReportBlock = z.infer<typeof ReportBlockSchema>;
export type ReportBlockKind = (typeof REPORT_BLOCK_KINDS)[number];

/** The one kind a valid block has. */
export function blockKind(block: ReportBlock): ReportBlockKind {
  return REPORT_BLOCK_KINDS.find((kind) => block[kind] !== undefined) ?? 'text';
}

export const ReportDefinitionSchema = z.strictObject({
  title: z.string().trim().min(1, 'Title is required').max(REPORT_TITLE_MAX),
  description: z.string().max(REPORT_DESCRIPTION_MAX).optional(),
  source: z.enum(REPORT_SOURCES),
  cache: CacheSchema.optional(),
  params: z
    .record(z.string().regex(NAME, 'A parameter name is letters, digits and _'), ReportParamSchema)
    .refine((params) => Object.keys(params).length <= REPORT_PARAMS_MAX, `At most ${REPORT_PARAMS_MAX} parameters`)
    .optional(),
  blocks: z
    .array(ReportBlockSchema)
    .min(1, 'A report has at least one block')
    .max(REPORT_BLOCKS_MAX)
    .superRefine((blocks, context) => {
      const seen = new Set<string>();
      blocks.forEach((block, index) => {
        if (seen.has(block.id)) {
          context.addIssue({ code: 'custom', message: reportMessages.blockIdsUnique, path: [index, 'id'] });
        }
        seen.add(block.id);
      });
    }),
});
export type ReportDefinition = z.infer<typeof ReportDefinitionSchema>;

// ---------------------------------------------------------------------------------------------
// Parsing: YAML text to a definition, or each problem with its line and column.
// ---------------------------------------------------------------------------------------------

/** A problem of a definition: the 422 item shape, with where in the YAML it is (1-based). */
export const ReportDefinitionProblemSchema = ValidationErrorItemSchema.extend({
  line: z.number().int().optional(),
  column: z.number().int().optional(),
}).meta({ id: 'ReportDefinitionProblem' });
export type ReportDefinitionProblem = z.infer<typeof ReportDefinitionProblemSchema>;

/** The 422 of the routes that take a definition: field problems, those of the YAML with a position. */
export const ReportDefinitionErrorSchema = z
  .object({ detail: z.array(ReportDefinitionProblemSchema), code: z.literal(ErrorCode.validation_failed) })
  .meta({ id: 'ReportDefinitionError' });

export type ReportParseResult =
  { ok: true; definition: ReportDefinition } | { ok: false; problems: ReportDefinitionProblem[] };

/** YAML's own messages end in " at line L, column C:" and a quote of the line; the position is kept apart. */
function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

type YamlNode = unknown;

/** The node at `path`, or the deepest one on the way there (a missing key: its mapping). */
function nodeAt(document: Document, path: readonly PropertyKey[]): { range?: [number, number, number] | null } | null {
  let node: YamlNode = document.contents;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair) break;
      // `key:` with nothing after it has no value node: point at the key.
      node = pair.value ?? pair.key;
    } else if (isSeq(node) && typeof segment === 'number' && node.items[segment] !== undefined) {
      node = node.items[segment];
    } else {
      break;
    }
  }
  return node !== null && typeof node === 'object' ? node : null;
}

/** The key node of `key` in the mapping at `path` (an unrecognised key: point at the key itself). */
function keyAt(document: Document, path: readonly PropertyKey[], key: string) {
  const parent = nodeAt(document, path);
  if (isMap(parent)) {
    const pair = parent.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === key);
    if (pair && isScalar(pair.key)) return pair.key;
  }
  return parent;
}

/**
 * Parses a report's YAML text and checks it against ReportDefinitionSchema. Each problem, of the
 * YAML or of the schema, names its line and column; `loc` is its path in the document. The text is
 * bounded (REPORT_DEFINITION_MAX), aliases too, so neither time nor memory can run away.
 */
export function parseReportDefinition(text: string): ReportParseResult {
  if (text.length > REPORT_DEFINITION_MAX) {
    return {
      ok: false,
      problems: [{ loc: [], msg: reportMessages.definitionTooLong, type: 'too_big', line: 1, column: 1 }],
    };
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  const position = (offset: number | undefined) => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    return { line, column: col };
  };
  if (document.errors.length > 0) {
    return {
      ok: false,
      problems: document.errors.slice(0, 20).map((error) => ({
        loc: [],
        msg: `${reportMessages.yamlSyntax}: ${firstLine(error.message)}`,
        type: `yaml.${error.code.toLowerCase()}`,
        ...position(error.pos[0]),
      })),
    };
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      problems: [{ loc: [], msg: `${reportMessages.yamlSyntax}: ${message}`, type: 'yaml', line: 1, column: 1 }],
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const start = nodeAt(document, [])?.range?.[0];
    return {
      ok: false,
      problems: [{ loc: [], msg: reportMessages.definitionNotMapping, type: 'type', ...position(start) }],
    };
  }
  const result = ReportDefinitionSchema.safeParse(value);
  if (result.success) return { ok: true, definition: result.data };
  const problems = result.error.issues.flatMap((issue): ReportDefinitionProblem[] => {
    const path = issue.path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment));
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        loc: [...path, key],
        msg: `Unrecognized key: "${key}"`,
        type: issue.code,
        ...position(keyAt(document, path, key)?.range?.[0]),
      }));
    }
    return [{ loc: path, msg: issue.message, type: issue.code, ...position(nodeAt(document, path)?.range?.[0]) }];
  });
  return { ok: false, problems };
}

// ---------------------------------------------------------------------------------------------
// The API: /api/v1/studio/reports and /api/v1/studio/preview.
// ---------------------------------------------------------------------------------------------

export const ReportSourceSchema = z.enum(REPORT_SOURCES);

const DefinitionTextSchema = z
  .string({ error: reportMessages.definitionRequired })
  .min(1, reportMessages.definitionRequired)
  .max(REPORT_DEFINITION_MAX, reportMessages.definitionTooLong);

const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SLUG = new RegExp(`^[a-z0-9][a-z0-9-]{0,${REPORT_SLUG_MAX - 1}}$`);

/** Whether `value` can be a report's slug: a report is found by id or slug, so a slug never looks like an id. */
export function isReportSlug(value: string): boolean {
  return SLUG.test(value) && !UUID_LIKE.test(value);
}

/** Lower case, hyphens for the rest: the slug a title suggests. */
export function slugFromTitle(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, REPORT_SLUG_MAX - 4)
    .replace(/-+$/, '');
  return isReportSlug(slug) ? slug : 'report';
}

/** `POST /studio/reports`: the YAML text, and the slug (from the title when omitted). */
/**
 * An agent's answer (`/agent/…/messages`) whose block the saved text adds: the new version is marked
 * "drafted with the agent". It must be the saver's own answer in the tenant.
 */
const AgentMessageIdSchema = z.uuid().optional();

export const ReportCreateSchema = z.object({
  definition: DefinitionTextSchema,
  agent_message_id: AgentMessageIdSchema,
  slug: z
    .string()
    .refine(isReportSlug, reportMessages.slugInvalid)
    .refine((slug) => !RESERVED_REPORT_SLUGS.includes(slug), reportMessages.slugReserved)
    .optional(),
});
export type ReportCreate = z.infer<typeof ReportCreateSchema>;

/** `PUT /studio/reports/{report_id}`: the new text and the version it was edited from. */
export const ReportUpdateSchema = z.object({
  definition: DefinitionTextSchema,
  agent_message_id: AgentMessageIdSchema,
  version: z.number().int().min(1),
});
export type ReportUpdate = z.infer<typeof ReportUpdateSchema>;

/** A report's id or its slug. */
export const ReportIdParamsSchema = z.object({
  report_id: z.string().min(1).max(100),
});

const pathInteger = z.preprocess(
  (value) => (typeof value === 'string' && !/^\d{1,9}$/.test(value) ? Number.NaN : value),
  z.coerce.number().int().min(1),
);
export const ReportVersionParamsSchema = ReportIdParamsSchema.extend({ version: pathInteger });

export const ReportSummarySchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  source: ReportSourceSchema,
  version: z.number().int(),
  built_in: z.boolean(),
  /** `tenant`: every member of its tenant sees it; `restricted`: the members and roles it names (and its creator). */
  visibility: z.enum(['tenant', 'restricted']),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type ReportSummary = z.infer<typeof ReportSummarySchema>;
/** A report in the list: its summary and who saved its current version (null for the built-ins, or a deleted account). */
export const ReportListItemSchema = ReportSummarySchema.extend({ updated_by: z.string().nullable() });
export type ReportListItem = z.infer<typeof ReportListItemSchema>;
export const ReportsSchema = pageOf(ReportListItemSchema);
export type Reports = z.infer<typeof ReportsSchema>;
/** `GET /studio/reports`: a page, and `q` to keep the reports whose title, description or slug contains it. */
export const ReportListQuerySchema = PaginationQuerySchema.extend({
  q: z.string().trim().max(REPORT_TITLE_MAX).optional(),
});
export type ReportListQuery = z.infer<typeof ReportListQuerySchema>;

export const ReportParamPublicSchema = z.object({
  name: z.string(),
  label: z.string(),
  type: z.enum(REPORT_PARAM_TYPES),
  default: z.union([z.string(), z.number(), z.boolean()]).nullable(),
  /** A select's values when the definition lists them. */
  options: z.array(z.union([z.string(), z.number()])).nullable(),
  /** A select's query when its values come from the source. */
  options_sql: z.string().nullable(),
});
export type ReportParamPublic = z.infer<typeof ReportParamPublicSchema>;

export const ReportBlockPublicSchema = z.object({
  id: z.string(),
  kind: z.enum(REPORT_BLOCK_KINDS),
  title: z.string().nullable(),
  kpi: KpiBlockSchema.optional(),
  chart: z.object({ sql: z.string(), spec: z.record(z.string(), z.unknown()) }).optional(),
  table: z.object({ sql: z.string(), page_size: z.number().int() }).optional(),
  text: z.string().optional(),
  /** A text block's Markdown as HTML (`reportTextHtml`): the viewer shows it as it is. */
  html: z.string().optional(),
});
export type ReportBlockPublic = z.infer<typeof ReportBlockPublicSchema>;

/**
 * A definition's parameters as a report carries them: the server lists them with a saved report and
 * the editor's preview shows the unsaved text's the same way.
 */
export function publicReportParams(definition: ReportDefinition): ReportParamPublic[] {
  return Object.entries(definition.params ?? {}).map(([name, param]) => ({
    name,
    label: param.label ?? name,
    type: param.type,
    default: param.default ?? null,
    options: Array.isArray(param.options) ? param.options : null,
    options_sql: typeof param.options === 'string' ? param.options : null,
  }));
}

/**
 * A block as a report carries it (server and editor's preview alike). `textHtml` is
 * `reportTextHtml` from `@dataplatform/contract/markdown`, passed in so that this module, which the
 * viewer loads, never brings the Markdown parser.
 */
export function publicReportBlock(block: ReportBlock, textHtml: (markdown: string) => string): ReportBlockPublic {
  const base = { id: block.id, kind: blockKind(block), title: block.title ?? null };
  if (block.kpi) return { ...base, kpi: block.kpi };
  if (block.chart) return { ...base, chart: block.chart };
  if (block.table) {
    return { ...base, table: { sql: block.table.sql, page_size: block.table.page_size ?? REPORT_PAGE_SIZE_DEFAULT } };
  }
  const text = block.text ?? '';
  return { ...base, text, html: textHtml(text) };
}

export const ReportPublicSchema = ReportSummarySchema.extend({
  /** The YAML text of the current version. */
  definition: z.string(),
  cache_seconds: z.number().int(),
  params: z.array(ReportParamPublicSchema),
  blocks: z.array(ReportBlockPublicSchema),
  created_by: z.uuid().nullable(),
});
export type ReportPublic = z.infer<typeof ReportPublicSchema>;

export const ReportVersionSchema = z.object({
  version: z.number().int(),
  author_id: z.uuid().nullable(),
  author_email: z.string().nullable(),
  created_at: z.iso.datetime(),
  /** The version this one restored, when it was made by a restore. */
  restored_from: z.number().int().nullable(),
  /** Saved from an agent's answer (its block was drafted with the agent). */
  drafted_with_agent: z.boolean(),
  title: z.string(),
});
export type ReportVersion = z.infer<typeof ReportVersionSchema>;
/** `GET /studio/reports/{report_id}/versions/{version}`: one version with its whole text (the editor's diff). */
export const ReportVersionTextSchema = ReportVersionSchema.extend({ definition: z.string() });
export type ReportVersionText = z.infer<typeof ReportVersionTextSchema>;
export const ReportVersionsSchema = pageOf(ReportVersionSchema);
export type ReportVersions = z.infer<typeof ReportVersionsSchema>;

const SortSchema = z
  .array(z.object({ column: z.string().min(1).max(200), direction: z.enum(['asc', 'desc']).default('asc') }))
  .max(REPORT_SORT_MAX);

const RunFields = {
  block: z.string().min(1).max(100),
  params: z
    .record(z.string().max(100), ParamScalarSchema)
    .refine((params) => Object.keys(params).length <= REPORT_PARAMS_MAX, `At most ${REPORT_PARAMS_MAX} parameters`)
    .default({}),
  skip: z.number().int().min(0).max(1_000_000_000).default(0),
  /** Rows of a table's page: at most the block's page size, which is also the default. */
  limit: z.number().int().min(1).max(REPORT_PAGE_SIZE_MAX).optional(),
  sort: SortSchema.optional(),
};

/** `POST /studio/reports/{report_id}/export`: every row of a table block, as CSV, in the order asked. */
export const ReportExportSchema = z.object({
  block: RunFields.block,
  params: RunFields.params,
  sort: SortSchema.optional(),
});
export type ReportExport = z.infer<typeof ReportExportSchema>;

/** A select parameter whose values come from a query: its name in the path. */
export const ReportParamOptionsParamsSchema = ReportIdParamsSchema.extend({ param: z.string().min(1).max(100) });

/** The values a select parameter offers (its query's first column, nulls left out). */
export const ReportParamOptionsSchema = pageOf(z.union([z.string(), z.number()]));
export type ReportParamOptions = z.infer<typeof ReportParamOptionsSchema>;

/** `POST /studio/reports/{report_id}/run`: one block of a saved report. */
export const ReportRunSchema = z.object(RunFields);
export type ReportRun = z.infer<typeof ReportRunSchema>;

/** `POST /studio/preview`: one block of an unsaved definition (the editor's live preview). */
export const ReportPreviewSchema = z.object({ definition: DefinitionTextSchema, ...RunFields });
export type ReportPreview = z.infer<typeof ReportPreviewSchema>;

/** What running a block answers: a table's page (count: the whole result), or a chart's or KPI's rows. */
export const ReportRunResultSchema = z.object({
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.array(z.unknown())),
  count: z.number().int(),
  cached: z.boolean(),
  elapsed_ms: z.number(),
});
export type ReportRunResult = z.infer<typeof ReportRunResultSchema>;

/** `GET /studio/access`: what the caller may do in Studio, so a screen offers only that (the server checks anyway). */
export const StudioAccessSchema = z.object({
  /** `reports:write`: create, change, delete and restore reports. */
  reports_write: z.boolean(),
  /** `sources:write`: upload and delete extracts. */
  sources_write: z.boolean(),
  /** `embed:manage`: the tenant's allowed origins and embed secret. */
  embed_manage: z.boolean(),
  /** The largest file an extract upload may be, in bytes (STUDIO_EXTRACT_MAX_BYTES): checked before sending. */
  extract_max_bytes: z.number().int(),
});
export type StudioAccess = z.infer<typeof StudioAccessSchema>;
