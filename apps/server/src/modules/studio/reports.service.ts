import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  blockKind,
  RESERVED_REPORT_SLUGS,
  cacheSeconds,
  CHART_LOOKS,
  CHART_PARAM_PREFIX,
  coerceParamValue,
  fullChartSpec,
  type ChartFormat,
  type ChartTheme,
  REPORT_PAGE_SIZE_DEFAULT,
  REPORT_PARAM_OPTIONS_MAX,
  reportMessages,
  slugFromTitle,
  type PaginationQuery,
  type ReportListQuery,
  type ReportCreate,
  type ReportDefinition,
  type ReportExport,
  type ReportParamOptions,
  type ReportPreview,
  type ReportPublic,
  type ReportRun,
  type ReportRunResult,
  type Reports,
  type ReportUpdate,
  type ReportVersions,
  type ReportVersionText,
  type ValidationErrorItem,
} from '@dataplatform/contract';
import type { Database, DbOrTx } from '../../db/client.js';
import type { Actor } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, badRequest, conflict, fieldError, isUniqueViolation } from '../../lib/errors.js';
import { isUuid } from '../../lib/uuid.js';
import type { AuditService } from '../audit/audit.service.js';
import type { ChartDrawer, ChartDrawing } from './charts/chart-drawing.js';
import { BUILT_IN_REPORTS, BUILT_IN_REPORTS_UPDATED_AT, type BuiltInReport } from './built-in-reports.js';
import type { ParamValue, RowStream, StudioEngine, StudioScope } from './engine/engine.js';
import { parseDefinition } from './parsed-definitions.js';
import {
  toReportPublic,
  toReportSnapshot,
  toReportSummary,
  toReportListItemFromRow,
  toReportVersion,
  type ReportRecord,
} from './reports.mapper.js';
import {
  advanceVersion,
  deleteReport,
  findReport,
  findReportById,
  findReportVersion,
  insertReport,
  insertReportVersion,
  listReports,
  listReportVersions,
  slugsLike,
  type ReportWithText,
} from './reports.repository.js';

/** What a chart drawing is asked for: a block, its parameters, the format, theme and width. */
export interface ChartRequest {
  block: string;
  params: ReportRun['params'];
  format: ChartFormat;
  theme: ChartTheme;
  width: number;
}

const reportNotFound = () => new AppError('report_not_found', reportMessages.notFound);
const versionNotFound = () => new AppError('report_not_found', reportMessages.versionNotFound);
const readOnly = () => new AppError('report_read_only', reportMessages.readOnly);

/** The definition of a request body, or a 422 naming each problem's line and column in it. */
function parseBodyDefinition(text: string): ReportDefinition {
  const parsed = parseDefinition(text);
  if (parsed.ok) return parsed.definition;
  throw new AppError(
    'validation_failed',
    parsed.problems.map((problem) => ({ ...problem, loc: ['body', 'definition', ...problem.loc] })),
  );
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

function builtInRecord(report: BuiltInReport): ReportRecord {
  return {
    id: report.id,
    slug: report.slug,
    version: 1,
    builtIn: true,
    visibility: 'tenant',
    createdBy: null,
    createdAt: BUILT_IN_REPORTS_UPDATED_AT,
    updatedAt: BUILT_IN_REPORTS_UPDATED_AT,
    text: report.text,
    definition: report.definition,
  };
}

function findBuiltIn(key: string): BuiltInReport | undefined {
  return BUILT_IN_REPORTS.find((report) => report.slug === key || report.id === key.toLowerCase());
}

function rowRecord(row: ReportWithText): ReportRecord {
  const parsed = parseDefinition(row.definition);
  // Stored texts were valid when saved; one the schema has since tightened against still reads.
  if (!parsed.ok) throw new Error(`stored report ${row.id} v${row.currentVersion} no longer parses`);
  return {
    id: row.id,
    slug: row.slug,
    version: row.currentVersion,
    builtIn: false,
    visibility: row.visibility,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    text: row.definition,
    definition: parsed.definition,
  };
}

/** The first of `base`, `base-2`, `base-3`, … no report of the tenant has. */
function freeSlug(base: string, taken: string[]): string {
  const used = new Set(taken);
  if (!used.has(base) && !RESERVED_REPORT_SLUGS.includes(base)) return base;
  for (let n = 2; ; n += 1) {
    if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
  }
}

/**
 * Studio reports (STUDIO-REPORT-*): a tenant's YAML definitions, versioned on every save, and the
 * built-in reports everyone sees. The scope is the tenant the request chose (X-Tenant-ID, which the
 * tenant-context plugin has checked against the caller); without one, only the built-ins exist. A
 * report of another tenant is a 404 like one that does not exist, so ids cannot be probed.
 */
export function createReportsService(deps: {
  db: Database;
  clock: Clock;
  audit: AuditService;
  engine: Pick<StudioEngine, 'run' | 'exportRows'>;
  /** Draws chart blocks to SVG and PNG, and keeps the drawings for the runs' cache time. */
  charts: ChartDrawer;
  /** Whether an agent answer with a block is the saver's own in the tenant (a save drafted with the agent names one). */
  ownsAgentAnswer: (actor: Actor, scope: StudioScope, messageId: string) => Promise<boolean>;
}) {
  const { db, clock, audit, engine, charts } = deps;

  /** True when the save names an answer of the saver's; a name of anything else is a 422. */
  async function draftedWithAgent(actor: Actor, scope: StudioScope, messageId: string | undefined): Promise<boolean> {
    if (messageId === undefined) return false;
    if (await deps.ownsAgentAnswer(actor, scope, messageId)) return true;
    throw fieldError(['body', 'agent_message_id'], reportMessages.agentAnswerUnknown);
  }

  /** The report `key` (id or slug) names in the scope, or a 404. */
  async function resolve(scope: StudioScope, key: string, tx: DbOrTx = db): Promise<ReportRecord> {
    const builtIn = findBuiltIn(key);
    if (builtIn) return builtInRecord(builtIn);
    if (scope.tenantId === null) throw reportNotFound();
    const row = await findReport(tx, scope.tenantId, key, scope.viewer);
    if (!row) throw reportNotFound();
    return rowRecord(row);
  }

  /** A tenant's row for a change: built-ins are read-only, other tenants' reports do not exist. */
  async function writable(scope: StudioScope, key: string, tx: DbOrTx): Promise<ReportWithText> {
    if (findBuiltIn(key)) throw readOnly();
    if (scope.tenantId === null) throw reportNotFound();
    const row = await findReport(tx, scope.tenantId, key, scope.viewer);
    if (!row) throw reportNotFound();
    return row;
  }

  /** The detail of a 409: who saved the version that is now current, and when. */
  async function conflictDetail(tx: DbOrTx, reportId: string, edited: number): Promise<string> {
    const [row] = await listReportVersions(tx, reportId, { skip: 0, limit: 1 }).then((page) => page.data);
    if (!row) return `Version ${edited} is no longer the newest: reload the report and apply your change again`;
    const who = row.authorEmail ?? 'a user who has since been deleted';
    return `You edited version ${edited}, but version ${row.version} was saved by ${who} at ${row.createdAt.toISOString()}: reload the report and apply your change again`;
  }

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

  /**
   * A tenant's report by id whoever asks: a share link is its own grant, checked by its caller.
   * A report of another tenant than the scope's is a 404.
   */
  async function recordById(scope: StudioScope, reportId: string): Promise<ReportRecord> {
    const row = await findReportById(db, reportId);
    if (!row || row.tenantId !== scope.tenantId) throw reportNotFound();
    return rowRecord(row);
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
    /** The built-ins first, then the tenant's reports by title. */
    async list(scope: StudioScope, page: ReportListQuery): Promise<Reports> {
      const search = page.q ? page.q.toLowerCase() : undefined;
      const builtIns = BUILT_IN_REPORTS.map((report) => ({
        ...toReportSummary(builtInRecord(report)),
        updated_by: null,
      })).filter(
        (report) =>
          search === undefined ||
          [report.title, report.description ?? '', report.slug].some((text) => text.toLowerCase().includes(search)),
      );
      const shown = builtIns.slice(page.skip, page.skip + page.limit);
      if (scope.tenantId === null) return { data: shown, count: builtIns.length };
      const rows = await listReports(
        db,
        scope.tenantId,
        {
          skip: Math.max(0, page.skip - builtIns.length),
          limit: page.limit - shown.length,
          search: page.q || undefined,
        },
        scope.viewer,
      );
      return { data: [...shown, ...rows.data.map(toReportListItemFromRow)], count: builtIns.length + rows.count };
    },

    async get(scope: StudioScope, key: string): Promise<ReportPublic> {
      return toReportPublic(await resolve(scope, key));
    },

    async create(actor: Actor, scope: StudioScope, body: ReportCreate): Promise<ReportPublic> {
      const tenantId = scope.tenantId;
      if (tenantId === null) throw badRequest(reportMessages.noTenantForWrite);
      const definition = parseBodyDefinition(body.definition);
      const drafted = await draftedWithAgent(actor, scope, body.agent_message_id);
      const now = clock.now();
      try {
        const row = await db.transaction(async (tx) => {
          let slug = body.slug;
          if (slug === undefined) {
            const base = slugFromTitle(definition.title);
            slug = freeSlug(base, await slugsLike(tx, tenantId, base));
          }
          const report = await insertReport(tx, {
            tenantId,
            slug,
            title: definition.title,
            description: definition.description ?? null,
            source: definition.source,
            currentVersion: 1,
            createdBy: actor.user.id,
            createdAt: now,
            updatedAt: now,
          });
          await insertReportVersion(tx, {
            reportId: report.id,
            version: 1,
            definition: body.definition,
            title: definition.title,
            authorId: actor.user.id,
            draftedWithAgent: drafted,
            createdAt: now,
          });
          await audit.record(tx, actor, {
            action: AUDIT_ACTIONS.reportCreate,
            targetType: AUDIT_TARGET_TYPES.report,
            targetId: report.id,
            before: null,
            after: toReportSnapshot(report),
          });
          return report;
        });
        return toReportPublic(rowRecord({ ...row, definition: body.definition }));
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(reportMessages.slugTaken, 'report_slug_taken');
        throw error;
      }
    },

    /** Saves a new version if `body.version` is still the newest; a stale one is a 409 naming who saved since. */
    async update(actor: Actor, scope: StudioScope, key: string, body: ReportUpdate): Promise<ReportPublic> {
      if (findBuiltIn(key)) throw readOnly();
      const definition = parseBodyDefinition(body.definition);
      const drafted = await draftedWithAgent(actor, scope, body.agent_message_id);
      const row = await db.transaction(async (tx) => {
        const before = await writable(scope, key, tx);
        const after = await advanceVersion(tx, before.id, body.version, {
          title: definition.title,
          description: definition.description ?? null,
          source: definition.source,
          updatedAt: clock.now(),
        });
        if (!after) throw conflict(await conflictDetail(tx, before.id, body.version), 'report_conflict');
        await insertReportVersion(tx, {
          reportId: after.id,
          version: after.currentVersion,
          definition: body.definition,
          title: definition.title,
          authorId: actor.user.id,
          draftedWithAgent: drafted,
          createdAt: clock.now(),
        });
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.reportUpdate,
          targetType: AUDIT_TARGET_TYPES.report,
          targetId: after.id,
          before: toReportSnapshot(before),
          after: toReportSnapshot(after),
        });
        return after;
      });
      return toReportPublic(rowRecord({ ...row, definition: body.definition }));
    },

    async remove(actor: Actor, scope: StudioScope, key: string): Promise<void> {
      await db.transaction(async (tx) => {
        const before = await writable(scope, key, tx);
        const deleted = await deleteReport(tx, before.id);
        if (!deleted) throw reportNotFound();
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.reportDelete,
          targetType: AUDIT_TARGET_TYPES.report,
          targetId: deleted.id,
          before: toReportSnapshot(deleted),
          after: null,
        });
      });
    },

    async versions(scope: StudioScope, key: string, page: PaginationQuery): Promise<ReportVersions> {
      const report = await resolve(scope, key);
      if (report.builtIn) {
        const only = {
          version: 1,
          title: report.definition.title,
          author_id: null,
          author_email: null,
          restored_from: null,
          drafted_with_agent: false,
          created_at: report.createdAt.toISOString(),
        };
        return { data: page.skip === 0 ? [only] : [], count: 1 };
      }
      const rows = await listReportVersions(db, report.id, page);
      return { data: rows.data.map(toReportVersion), count: rows.count };
    },

    /** One version with its whole text (the editor's diff of two versions). */
    async version(scope: StudioScope, key: string, version: number): Promise<ReportVersionText> {
      const report = await resolve(scope, key);
      if (report.builtIn) {
        if (version !== 1) throw versionNotFound();
        return {
          version: 1,
          title: report.definition.title,
          author_id: null,
          author_email: null,
          restored_from: null,
          drafted_with_agent: false,
          created_at: report.createdAt.toISOString(),
          definition: report.text,
        };
      }
      const row = await findReportVersion(db, report.id, version);
      if (!row) throw versionNotFound();
      return { ...toReportVersion(row), definition: row.definition };
    },

    /** Saves the text of an earlier version again, as the newest version (history is never rewritten). */
    async restore(actor: Actor, scope: StudioScope, key: string, version: number): Promise<ReportPublic> {
      if (findBuiltIn(key)) throw readOnly();
      const { row, text } = await db.transaction(async (tx) => {
        const before = await writable(scope, key, tx);
        const old = await findReportVersion(tx, before.id, version);
        if (!old) throw versionNotFound();
        const definition = parseBodyDefinition(old.definition);
        const after = await advanceVersion(tx, before.id, null, {
          title: definition.title,
          description: definition.description ?? null,
          source: definition.source,
          updatedAt: clock.now(),
        });
        if (!after) throw reportNotFound();
        await insertReportVersion(tx, {
          reportId: after.id,
          version: after.currentVersion,
          definition: old.definition,
          title: definition.title,
          authorId: actor.user.id,
          restoredFrom: version,
          createdAt: clock.now(),
        });
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.reportRestore,
          targetType: AUDIT_TARGET_TYPES.report,
          targetId: after.id,
          before: toReportSnapshot(before),
          after: toReportSnapshot(after, { restored_from: version }),
        });
        return { row: after, text: old.definition };
      });
      return toReportPublic(rowRecord({ ...row, definition: text }));
    },

    /** One block of a saved report, cached per report version and block for the report's `cache`. */
    async run(scope: StudioScope, key: string, request: ReportRun, signal?: AbortSignal): Promise<ReportRunResult> {
      return runRecord(scope, await resolve(scope, key), request, signal);
    },

    /** The tenant a report belongs to (a built-in belongs to none), or null when there is no such report. */
    async tenantOf(reportId: string): Promise<string | null> {
      if (!isUuid(reportId)) return null;
      const row = await findReportById(db, reportId);
      return row?.tenantId ?? null;
    },

    /** One block of a report by id as an embed token runs it: cached per version as any run. */
    async runById(
      scope: StudioScope,
      reportId: string,
      request: ReportRun,
      signal?: AbortSignal,
    ): Promise<ReportRunResult> {
      return runRecord(scope, await recordById(scope, reportId), request, signal);
    },

    recordById,
    runRecord,

    /** A chart block of a report the caller sees, drawn as SVG or PNG (`GET …/charts/{block}.svg|png`). */
    async drawChart(scope: StudioScope, key: string, request: ChartRequest, signal?: AbortSignal) {
      const report = await resolve(scope, key);
      return { report, drawing: await drawBlock(scope, report, request, signal) };
    },

    /** A chart block of a report by id as an embed draws it (its caller checked the token). */
    async drawChartById(scope: StudioScope, reportId: string, request: ChartRequest, signal?: AbortSignal) {
      return drawBlock(scope, await recordById(scope, reportId), request, signal);
    },

    /** A chart block of a report already read, as a share link draws it (its caller checked the link). */
    drawRecord: drawBlock,

    /** One block of an unsaved definition (the editor's live preview): never cached. */
    async preview(scope: StudioScope, request: ReportPreview, signal?: AbortSignal): Promise<ReportRunResult> {
      const definition = parseBodyDefinition(request.definition);
      return runBlock(scope, definition, request, null, signal);
    },

    /**
     * Every row of a saved report's table block, streamed for a CSV download: the same query, values
     * and order as its pages, never cached, up to the engine's export cap.
     */
    async exportBlock(
      scope: StudioScope,
      key: string,
      request: ReportExport,
      signal?: AbortSignal,
    ): Promise<{ report: ReportRecord; stream: RowStream }> {
      const report = await resolve(scope, key);
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
      return { report, stream };
    },

    /**
     * The values a select parameter's query gives (its first column, nulls left out, at most
     * REPORT_PARAM_OPTIONS_MAX), run with the other parameters' defaults and cached like its blocks.
     */
    async paramOptions(
      scope: StudioScope,
      key: string,
      name: string,
      signal?: AbortSignal,
    ): Promise<ReportParamOptions> {
      const report = await resolve(scope, key);
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

export type ReportsService = ReturnType<typeof createReportsService>;
