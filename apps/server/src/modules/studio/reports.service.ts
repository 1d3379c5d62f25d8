import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  RESERVED_REPORT_SLUGS,
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
} from '@dataplatform/contract';
import type { Database, DbOrTx } from '../../db/client.js';
import type { Actor } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, badRequest, conflict, fieldError, isUniqueViolation } from '../../lib/errors.js';
import { isUuid } from '../../lib/uuid.js';
import type { AuditService } from '../audit/audit.service.js';
import type { ChartDrawer } from './charts/chart-drawing.js';
import { BUILT_IN_REPORTS, type BuiltInReport } from './built-in-reports.js';
import type { RowStream, StudioEngine, StudioScope } from './engine/engine.js';
import { parseDefinition } from './parsed-definitions.js';
import { createReportRuns, type ChartRequest } from './report-runs.js';
import {
  builtInRecord,
  rowRecord,
  toBuiltInVersion,
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

// Running a report's blocks is report-runs.ts; its callers import it from here, as before.
export type { ChartRequest } from './report-runs.js';

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

function findBuiltIn(key: string): BuiltInReport | undefined {
  return BUILT_IN_REPORTS.find((report) => report.slug === key || report.id === key.toLowerCase());
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
  const { db, clock, audit } = deps;
  const runs = createReportRuns(deps);
  const { runBlock, runRecord, drawBlock } = runs;

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

  /**
   * A tenant's report by id whoever asks: a share link is its own grant, checked by its caller.
   * A report of another tenant than the scope's is a 404.
   */
  async function recordById(scope: StudioScope, reportId: string): Promise<ReportRecord> {
    const row = await findReportById(db, reportId);
    if (!row || row.tenantId !== scope.tenantId) throw reportNotFound();
    return rowRecord(row);
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
      if (report.builtIn) return { data: page.skip === 0 ? [toBuiltInVersion(report)] : [], count: 1 };
      const rows = await listReportVersions(db, report.id, page);
      return { data: rows.data.map(toReportVersion), count: rows.count };
    },

    /** One version with its whole text (the editor's diff of two versions). */
    async version(scope: StudioScope, key: string, version: number): Promise<ReportVersionText> {
      const report = await resolve(scope, key);
      if (report.builtIn) {
        if (version !== 1) throw versionNotFound();
        return { ...toBuiltInVersion(report), definition: report.text };
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
      return { report, stream: await runs.exportRecord(scope, report, request, signal) };
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
      return runs.paramOptionsOf(scope, await resolve(scope, key), name, signal);
    },

    /** One block of an unsaved definition (the editor's live preview): never cached. */
    async preview(scope: StudioScope, request: ReportPreview, signal?: AbortSignal): Promise<ReportRunResult> {
      const definition = parseBodyDefinition(request.definition);
      return runBlock(scope, definition, request, null, signal);
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
