// No zod here (decision 030): a screen that shows only these texts or limits does not load zod.

/** The longest report definition (YAML text) a save or a preview accepts, in characters. */
export const REPORT_DEFINITION_MAX = 100_000;
export const REPORT_TITLE_MAX = 200;
export const REPORT_DESCRIPTION_MAX = 2_000;
export const REPORT_SQL_MAX = 20_000;
export const REPORT_TEXT_MAX = 20_000;
export const REPORT_BLOCKS_MAX = 50;
export const REPORT_PARAMS_MAX = 20;
/** Most values a `select` parameter may list inline. */
export const REPORT_PARAM_OPTIONS_MAX = 1_000;
/** Longest text or select value a run may bind to a parameter. */
export const REPORT_PARAM_VALUE_MAX = 1_000;
/** A table block's page size when it names none, and the most it may name. */
export const REPORT_PAGE_SIZE_DEFAULT = 50;
export const REPORT_PAGE_SIZE_MAX = 1_000;
/** How deep a chart's Vega-Lite object may nest. */
export const REPORT_CHART_SPEC_DEPTH_MAX = 32;
/** The longest time a report's results may be cached (`cache: 24h`). */
export const REPORT_CACHE_MAX_SECONDS = 24 * 60 * 60;
/** Most columns a run may sort by. */
export const REPORT_SORT_MAX = 5;
export const REPORT_SLUG_MAX = 64;

export const REPORT_SOURCES = ['demo', 'tenant', 'extract'] as const;
export const REPORT_PARAM_TYPES = ['text', 'number', 'date', 'select', 'boolean'] as const;
export const REPORT_BLOCK_KINDS = ['kpi', 'chart', 'table', 'text'] as const;
export const REPORT_KPI_FORMATS = ['number', 'integer', 'currency', 'percent'] as const;

/** The slugs of the reports every signed-in user sees; no tenant's report may take one. */
export const BUILT_IN_REPORT_SLUGS = ['payer', 'hospital-prices', 'cms-fs'] as const;

/**
 * The id of each built-in report, and its title, description and source word for word as its
 * definition has them (apps/server/src/modules/studio/built-in-reports.ts, which refuses to load if
 * they differ): the showcase pages draw them in their frame, before the report arrives.
 */
export const BUILT_IN_REPORT_HEADERS: Readonly<
  Record<(typeof BUILT_IN_REPORT_SLUGS)[number], { id: string; title: string; description: string; source: 'demo' }>
> = {
  payer: {
    id: '5d0d1e00-0000-4000-8000-000000000001',
    title: 'Negotiated rates by payer',
    source: 'demo',
    description:
      "In-network rates the payers negotiated for one billing code: the typical rate, how widely each payer's rates spread, and the rates furthest from their payer's median.",
  },
  'hospital-prices': {
    id: '5d0d1e00-0000-4000-8000-000000000002',
    title: 'Hospital prices',
    source: 'demo',
    description:
      'What each hospital lists for one service: its gross charge, its discounted cash price, and the rates payers negotiated with it.',
  },
  'cms-fs': {
    id: '5d0d1e00-0000-4000-8000-000000000003',
    title: 'Physician fee schedule by locality',
    source: 'demo',
    description:
      "The allowed amount of one service in every payment locality, computed from its relative values, the locality's cost indices and the conversion factor.",
  },
};

/** Slugs no tenant report may take: the built-ins', and `new`, the editor's path for a new report. */
export const RESERVED_REPORT_SLUGS: readonly string[] = [...BUILT_IN_REPORT_SLUGS, 'new'];

/** The marks a chart's drawing may hold (bars, points, labels, ticks …): past it the chart is refused, not drawn. */
export const CHART_MARKS_MAX = 25_000;

export const reportMessages = {
  notFound: 'Report not found',
  versionNotFound: 'Version not found',
  readOnly: 'Built-in reports are read-only: copy the definition into a new report to change it',
  slugTaken: 'A report with this slug already exists in this tenant',
  slugInvalid: `Slug must be 1 to ${REPORT_SLUG_MAX} lowercase letters, digits and hyphens, starting with a letter or digit, and not look like an id`,
  slugReserved: 'This slug is reserved: it belongs to a built-in report or a Studio page',
  agentAnswerUnknown: 'No answer of yours with a block has this id in this tenant',
  definitionRequired: 'Definition is required',
  definitionTooLong: `Definition must be at most ${REPORT_DEFINITION_MAX} characters`,
  definitionNotMapping: 'A report definition is a YAML mapping (title, source, blocks, …)',
  yamlSyntax: 'YAML syntax error',
  blockIdsUnique: 'Block ids must be unique',
  chartData: 'A chart spec has no data of its own: the block’s query gives it its rows (remove `data`/`datasets`)',
  chartMark: 'A chart spec needs a mark (or a layer, concat, facet or repeat)',
  chartTooDeep: `A chart spec may nest at most ${REPORT_CHART_SPEC_DEPTH_MAX} levels`,
  blockKind: 'A block has exactly one of kpi, chart, table or text',
  cacheInvalid: 'Cache must be a duration such as 30s, 10m, 1h or 1d, at most 24h',
  paramOptionsOnlySelect: 'Only a select parameter has options',
  paramOptionsRequired: 'A select parameter needs options: a list of values, or a SQL query',
  paramDefaultType: 'The default does not fit the parameter’s type',
  unknownBlock: 'The report has no block with this id',
  textBlockNoQuery: 'A text block has no query to run',
  notAChart: 'The report has no chart block with this id',
  chartLoads: 'A chart may not load data, images or links from a URL or file: the block’s query gives it its rows',
  chartTooManyMarks: `The chart would draw more than ${CHART_MARKS_MAX} marks: aggregate first`,
  chartInvalid: 'The chart could not be drawn from its spec',
  exportOnlyTable: 'Only a table block can be downloaded',
  paramNoQuery: 'This parameter’s values are listed in the report, not queried',
  unknownParam: 'The report has no parameter with this name',
  paramNumber: 'Must be a number',
  paramDate: 'Must be a date written YYYY-MM-DD',
  paramBoolean: 'Must be true or false',
  paramText: `Must be a text of at most ${REPORT_PARAM_VALUE_MAX} characters`,
  paramNotAnOption: 'Must be one of the parameter’s options',
  limitOverPageSize: 'Limit must not exceed the block’s page size',
  noTenantForWrite: 'Select a tenant (X-Tenant-ID) to save reports in',
} as const;
