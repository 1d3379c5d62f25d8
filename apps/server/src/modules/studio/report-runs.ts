import {
  blockKind,
  cacheSeconds,
  CHART_LOOKS,
  CHART_PARAM_PREFIX,
  coerceParamValue,
  fullChartSpec,
  REPORT_PAGE_SIZE_DEFAULT,
  REPORT_PARAM_OPTIONS_MAX,
  reportMessages,
  type ChartFormat,
  type ChartTheme,
  type ReportDefinition,
  type ReportExport,
  type ReportParamOptions,
  type ReportRun,
  type ReportRunResult,
  type ValidationErrorItem,
} from '@dataplatform/contract';
import { AppError, fieldError } from '../../lib/errors.js';
import type { ChartDrawer, ChartDrawing } from './charts/chart-drawing.js';
import type { ParamValue, RowStream, StudioEngine, StudioScope } from './engine/engine.js';
import type { ReportRecord } from './reports.mapper.js';

/** What a chart drawing is asked for: a block, its parameters, the format, theme and width. */
export interface ChartRequest {
  block: string;
  params: ReportRun['params'];
  format: ChartFormat;
  theme: ChartTheme;
  width: number;
}

/**
 * The value of every declared parameter for a run: the one given, else its default, coerced to its
 * type; each unknown or ill-typed one is a problem at its place in the body.
 */
function resolveParams(
  definition: ReportDefinition,
  given: Record<string, unknown>,
): { params: Record<string, ParamValue>; problems: ValidationErrorItem[] } {
  const declared = definition.params ?? {};
  const problems: ValidationErrorItem[] = [];
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(declared, name)) {
      problems.push({ loc: ['body', 'params', name], msg: reportMessages.unknownParam, type: 'value_error' });
    }
  }
  const params: Record<string, ParamValue> = {};
  for (const [name, param] of Object.entries(declared)) {
    const value = Object.hasOwn(given, name) ? given[name] : undefined;
    const coerced = coerceParamValue(param, value === undefined ? (param.default ?? null) : value);
    if (coerced.error !== undefined) {
      problems.push({ loc: ['body', 'params', name], msg: coerced.error, type: 'value_error' });
    } else {
      params[name] = coerced.value;
    }
  }
  return { params, problems };
}

/**
 * What a report's blocks give when run: a block's rows (cached per report version and block for the
 * report's `cache`), a chart block drawn, a table's every row for a download, and a select
 * parameter's options. The report is already read and its reader allowed (reports.service.ts).
 */
export function createReportRuns(deps: {
  engine: Pick<StudioEngine, 'run' | 'exportRows'>;
  /** Draws chart blocks to SVG and PNG, and keeps the drawings for the runs' cache time. */
  charts: ChartDrawer;
}) {
  const { engine, charts } = deps;

  /** Runs one block of a definition, after checking the block, the parameters and the paging. */
  async function runBlock(
    scope: StudioScope,
    definition: ReportDefinition,
    request: ReportRun,
    cache: { key: string; ttlSeconds: number } | null,
    signal: AbortSignal | undefined,
  ): Promise<ReportRunResult> {
    const block = definition.blocks.find((candidate) => candidate.id === request.block);
    if (!block) throw fieldError(['body', 'block'], reportMessages.unknownBlock);
    const kind = blockKind(block);
    if (kind === 'text') throw fieldError(['body', 'block'], reportMessages.textBlockNoQuery);

    const { params, problems } = resolveParams(definition, request.params);
    const common = {
      scope,
      source: definition.source,
      params,
      ...(cache && cache.ttlSeconds > 0 ? { cacheKey: cache.key, cacheTtlSeconds: cache.ttlSeconds } : {}),
      ...(signal ? { signal } : {}),
    };
    if (block.table) {
      const pageSize = block.table.page_size ?? REPORT_PAGE_SIZE_DEFAULT;
      const limit = request.limit ?? pageSize;
      if (limit > pageSize) {
        problems.push({ loc: ['body', 'limit'], msg: reportMessages.limitOverPageSize, type: 'value_error' });
      }
      if (problems.length > 0) throw new AppError('validation_failed', problems);
      return engine.run({
        ...common,
        sql: block.table.sql,
        shape: 'page',
        skip: request.skip,
        limit,
        ...(request.sort ? { sort: request.sort } : {}),
      });
    }
    if (problems.length > 0) throw new AppError('validation_failed', problems);
    const sql = block.kpi?.sql ?? block.chart!.sql;
    return engine.run({ ...common, sql, shape: 'capped' });
  }

  /** One block of a report already read (a share link keeps its report briefly): cached per version. */
  async function runRecord(
    scope: StudioScope,
    report: ReportRecord,
    request: ReportRun,
    signal?: AbortSignal,
  ): Promise<ReportRunResult> {
    const cache = {
      key: `${report.id}:${report.version}:${request.block}`,
      ttlSeconds: cacheSeconds(report.definition.cache),
    };
    return runBlock(scope, report.definition, request, cache, signal);
  }

  /**
   * A chart block of a saved report drawn as `format`: its rows run as any run of it (and cached so),
   * then drawn once per rows, theme and width and kept as long. A block that is not a chart is a 404;
   * a parameter the report lacks or cannot take is a 422 at its place in the query.
   */
  async function drawBlock(
    scope: StudioScope,
    report: ReportRecord,
    request: ChartRequest,
    signal: AbortSignal | undefined,
  ): Promise<ChartDrawing> {
    const block = report.definition.blocks.find((candidate) => candidate.id === request.block);
    if (!block?.chart) throw new AppError('not_found', reportMessages.notAChart);
    const ttlSeconds = cacheSeconds(report.definition.cache);
    const cache = { key: `${report.id}:${report.version}:${block.id}`, ttlSeconds };
    let result: ReportRunResult;
    try {
      result = await runBlock(
        scope,
        report.definition,
        { block: block.id, params: request.params, skip: 0 },
        cache,
        signal,
      );
    } catch (error) {
      // The parameters came in the query (param.<name>), not in a body.
      if (error instanceof AppError && Array.isArray(error.detail)) {
        throw new AppError(
          'validation_failed',
          error.detail.map((problem) => ({
            ...problem,
            loc:
              problem.loc[0] === 'body' && problem.loc[1] === 'params'
                ? ['query', `${CHART_PARAM_PREFIX}${String(problem.loc[2])}`]
                : problem.loc,
          })),
        );
      }
      throw error;
    }
    const values = result.rows.map((row) =>
      Object.fromEntries(result.columns.map((column, index) => [column.name, row[index]])),
    );
    const look = CHART_LOOKS[request.theme];
    const spec = fullChartSpec(block.chart.spec, values, block.title ?? 'Chart', look, request.width);
    return charts.draw(spec, request.format, { background: look.background, ttlSeconds: Math.max(ttlSeconds, 60) });
  }

  return {
    runBlock,
    runRecord,
    drawBlock,

    /**
     * Every row of a saved report's table block, streamed for a CSV download: the same query, values
     * and order as its pages, never cached, up to the engine's export cap.
     */
    async exportRecord(
      scope: StudioScope,
      report: ReportRecord,
      request: ReportExport,
      signal?: AbortSignal,
    ): Promise<RowStream> {
      const block = report.definition.blocks.find((candidate) => candidate.id === request.block);
      if (!block) throw fieldError(['body', 'block'], reportMessages.unknownBlock);
      if (!block.table) throw fieldError(['body', 'block'], reportMessages.exportOnlyTable);
      const { params, problems } = resolveParams(report.definition, request.params);
      if (problems.length > 0) throw new AppError('validation_failed', problems);
      const stream = await engine.exportRows({
        scope,
        source: report.definition.source,
        sql: block.table.sql,
        params,
        ...(request.sort ? { sort: request.sort } : {}),
        ...(signal ? { signal } : {}),
      });
      return stream;
    },

    /**
     * The values a select parameter's query gives (its first column, nulls left out, at most
     * REPORT_PARAM_OPTIONS_MAX), run with the other parameters' defaults and cached like its blocks.
     */
    async paramOptionsOf(
      scope: StudioScope,
      report: ReportRecord,
      name: string,
      signal?: AbortSignal,
    ): Promise<ReportParamOptions> {
      const param = Object.hasOwn(report.definition.params ?? {}, name) ? report.definition.params![name] : undefined;
      if (!param) throw new AppError('not_found', reportMessages.unknownParam);
      if (typeof param.options !== 'string') throw new AppError('not_found', reportMessages.paramNoQuery);
      const { params, problems } = resolveParams(report.definition, {});
      if (problems.length > 0) throw new AppError('validation_failed', problems);
      const ttlSeconds = cacheSeconds(report.definition.cache);
      const result = await engine.run({
        scope,
        source: report.definition.source,
        sql: param.options,
        params,
        shape: 'capped',
        ...(ttlSeconds > 0
          ? { cacheKey: `${report.id}:${report.version}:param:${name}`, cacheTtlSeconds: ttlSeconds }
          : {}),
        ...(signal ? { signal } : {}),
      });
      const data = result.rows
        .map((row) => row[0])
        .filter((value) => value !== null && value !== undefined)
        .slice(0, REPORT_PARAM_OPTIONS_MAX)
        .map((value) => (typeof value === 'number' || typeof value === 'string' ? value : JSON.stringify(value)));
      return { data, count: data.length };
    },
  };
}
