import { hash, randomBytes } from 'node:crypto';
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  cacheSeconds,
  coerceParamValue,
  publicReportParams,
  REPORT_AUDIENCE_MEMBERS_MAX,
  REPORT_LINK_LIFETIME_MAX_DAYS,
  REPORT_LINKS_MAX,
  reportMessages,
  runRequestOf,
  sharedReportBlock,
  sharingMessages,
  type ReportAudience,
  type ReportLink,
  type ReportLinkCreate,
  type ReportLinkCreated,
  type ReportLinks,
  type ReportRun,
  type ReportRunResult,
  type ReportVisibility,
  type SharedReport,
  type ValidationErrorItem,
} from '@dataplatform/contract';
import { reportTextHtml } from '@dataplatform/contract/markdown';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/client.js';
import type { Actor } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, conflict, fieldError, forbidden, notFound } from '../../lib/errors.js';
import type { AuditService } from '../audit/audit.service.js';
import type { ParamValue, StudioScope } from './engine/engine.js';
import {
  countLiveLinks,
  findLink,
  findLinkByHash,
  insertReportLink,
  listReportLinks,
  listRoles,
  listTenantMembers,
  membersAmong,
  revokeLink,
  rolesAmong,
  type ReportLinkRow,
} from './report-links.repository.js';
import { listReportAccess, replaceReportAccess, setReportVisibility } from './reports.repository.js';
import type { ReportRecord } from './reports.mapper.js';
import type { ChartRequest, ReportsService } from './reports.service.js';
import type { ChartDrawing } from './charts/chart-drawing.js';

const DAY_MS = 86_400_000;

/** The SHA-256 of a link's token, the only form of it that is kept. */
export const tokenHash = (token: string) => hash('sha256', token, 'base64url');

const linkGone = () => new AppError('share_link_gone', sharingMessages.linkGone);
const linkNotFound = () => notFound(sharingMessages.linkNotFound);

function isLive(link: ReportLinkRow, now: Date): boolean {
  return link.revokedAt === null && (link.expiresAt === null || link.expiresAt > now);
}

function toLink(link: ReportLinkRow, now: Date): ReportLink {
  return {
    id: link.id,
    report_id: link.reportId,
    params: link.params,
    expires_at: link.expiresAt?.toISOString() ?? null,
    revoked_at: link.revokedAt?.toISOString() ?? null,
    created_by: link.createdBy,
    created_at: link.createdAt.toISOString(),
    active: isLive(link, now),
  };
}

/** A report as a link or an embed shows it, before its first runs. */
export type SharedView = Omit<SharedReport, 'first_runs'>;

/** A report as a link or an embed shows it: no SQL, the locked parameters marked with their values. */
function sharedView(record: ReportRecord, locked: Record<string, ParamValue>, expiresAt: Date | null): SharedView {
  return {
    title: record.definition.title,
    description: record.definition.description ?? null,
    params: publicReportParams(record.definition).map(({ options_sql: _query, ...param }) => ({
      ...param,
      ...(Object.hasOwn(locked, param.name) ? { default: locked[param.name] ?? null } : {}),
      locked: Object.hasOwn(locked, param.name),
    })),
    blocks: record.definition.blocks.map((block) => sharedReportBlock(block, reportTextHtml)),
    expires_at: expiresAt?.toISOString() ?? null,
  };
}

/**
 * The view with what its viewer asks for first already run (`runRequestOf` each block at the
 * values shown: the defaults, a locked one's value), the runs side by side. A run that fails is left
 * out, for the viewer to ask for and tell; an abandoned request stops them all.
 */
export async function withFirstRuns(
  view: SharedView,
  run: (request: ReportRun) => Promise<ReportRunResult>,
  signal?: AbortSignal,
): Promise<SharedReport> {
  const shown = Object.fromEntries(
    view.params.map((param) => [param.name, param.default === null ? '' : String(param.default)]),
  );
  const requests = view.blocks.filter((block) => block.kind !== 'text').map((block) => runRequestOf(block, shown));
  const settled = await Promise.allSettled(requests.map((request) => run(request)));
  signal?.throwIfAborted();
  const first_runs = settled.flatMap((outcome, index) =>
    outcome.status === 'fulfilled' ? [{ request: requests[index]!, result: outcome.value }] : [],
  );
  return { ...view, first_runs };
}

/** `params` with the link's fixed values forced; another value for a fixed one is a 403. */
function forced<T extends Record<string, unknown>>(link: ReportLinkRow, params: T): T {
  for (const [name, value] of Object.entries(link.params)) {
    if (Object.hasOwn(params, name) && String(params[name]) !== String(value)) {
      throw forbidden(sharingMessages.paramLocked);
    }
  }
  return { ...params, ...link.params };
}

/** Tokens whose grant this instance keeps, and for how long. */
const GRANTS_MAX = 10_000;
export const GRANT_TTL_MS = 1_000;
/** A token that grants nothing (none such, or its tenant or report gone): remembered as briefly. */
const NO_GRANT = 'none' as const;

/** What a live link's token grants: one object per read of it, kept `GRANT_TTL_MS` at most. */
export interface LinkGrant {
  link: ReportLinkRow;
  scope: StudioScope;
  record: ReportRecord;
  /** The report as the link shows it (its text blocks rendered once, not on every call). */
  view: SharedView;
}

/**
 * Who sees a report, and share links (issue 58). An author (`reports:write`) who can see a report
 * sets its visibility and makes, lists and revokes its links; anyone holding a live link's token
 * sees that report alone, run in its tenant with the link's parameter values forced.
 */
export function createReportSharingService(deps: {
  db: Database;
  clock: Clock;
  audit: AuditService;
  reports: Pick<ReportsService, 'get' | 'recordById' | 'runRecord' | 'drawRecord'>;
  /** The public URL of the web app (FRONTEND_HOST), for the link's address. */
  frontendHost: string;
  /** The scope a link runs in: its tenant if active, with its database's sealed URL. */
  tenantScope: (tenantId: string) => Promise<StudioScope | null>;
}) {
  const { db, clock, audit, reports } = deps;

  /** A tenant report the author can see (a built-in cannot be shared or restricted). */
  async function authored(scope: StudioScope, key: string) {
    const report = await reports.get(scope, key);
    if (report.built_in) throw new AppError('report_read_only', sharingMessages.builtInShare);
    return report;
  }

  /**
   * What a token grants, read at most once a second per token on this instance (lru-cache's fetch
   * joins the concurrent reads): a crowd opening one link costs the database one read of the link, its
   * tenant and its report, not one per call. The trade-off: another instance may honour a link for up
   * to a second after it is revoked (this one forgets it at once); expiry is checked on every call.
   */
  const grants = new LRUCache<string, LinkGrant | typeof NO_GRANT>({
    max: GRANTS_MAX,
    ttl: GRANT_TTL_MS,
    fetchMethod: async (hash) => {
      const link = await findLinkByHash(db, hash);
      const scope = link ? await deps.tenantScope(link.tenantId) : null;
      if (!link || !scope) return NO_GRANT;
      const record = await reports.recordById(scope, link.reportId).catch((error: unknown) => {
        if (error instanceof AppError && error.errorCode === 'report_not_found') return null;
        throw error;
      });
      return record ? { link, scope, record, view: sharedView(record, link.params, link.expiresAt) } : NO_GRANT;
    },
  });

  /** A live link by its token's hash, with its scope and report; a revoked or expired one is a 410. */
  async function liveLink(hashed: string): Promise<LinkGrant> {
    const grant = await grants.fetch(hashed);
    if (!grant || grant === NO_GRANT) throw linkNotFound();
    if (!isLive(grant.link, clock.now())) throw linkGone();
    return grant;
  }

  return {
    /** Whom the author may name when restricting the report: the tenant's members and the roles. */
    async audience(scope: StudioScope, key: string): Promise<ReportAudience> {
      await authored(scope, key);
      const [members, roleRows] = await Promise.all([
        listTenantMembers(db, scope.tenantId!, REPORT_AUDIENCE_MEMBERS_MAX + 1),
        listRoles(db),
      ]);
      return {
        members: members
          .slice(0, REPORT_AUDIENCE_MEMBERS_MAX)
          .map((member) => ({ id: member.id, email: member.email, full_name: member.fullName })),
        roles: roleRows,
        members_truncated: members.length > REPORT_AUDIENCE_MEMBERS_MAX,
      };
    },

    async visibility(scope: StudioScope, key: string): Promise<ReportVisibility> {
      const report = await authored(scope, key);
      const access = await listReportAccess(db, report.id);
      return { visibility: report.visibility, user_ids: access.userIds, role_ids: access.roleIds };
    },

    async setVisibility(
      actor: Actor,
      scope: StudioScope,
      key: string,
      body: ReportVisibility,
    ): Promise<ReportVisibility> {
      const report = await authored(scope, key);
      const tenantId = scope.tenantId!;
      const restricted = body.visibility === 'restricted';
      const userIds = restricted ? [...new Set(body.user_ids)] : [];
      const roleIds = restricted ? [...new Set(body.role_ids)] : [];
      const problems: ValidationErrorItem[] = [];
      const members = await membersAmong(db, tenantId, userIds);
      userIds.forEach((id, index) => {
        if (!members.has(id))
          problems.push({ loc: ['body', 'user_ids', index], msg: sharingMessages.notMember, type: 'value_error' });
      });
      const known = await rolesAmong(db, roleIds);
      roleIds.forEach((id, index) => {
        if (!known.has(id))
          problems.push({ loc: ['body', 'role_ids', index], msg: sharingMessages.unknownRole, type: 'value_error' });
      });
      if (problems.length > 0) throw new AppError('validation_failed', problems);
      await db.transaction(async (tx) => {
        const before = await listReportAccess(tx, report.id);
        await setReportVisibility(tx, report.id, body.visibility);
        await replaceReportAccess(tx, report.id, { userIds, roleIds });
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.reportVisibility,
          targetType: AUDIT_TARGET_TYPES.report,
          targetId: report.id,
          before: { visibility: report.visibility, user_ids: before.userIds, role_ids: before.roleIds },
          after: { visibility: body.visibility, user_ids: userIds, role_ids: roleIds },
        });
      });
      return { visibility: body.visibility, user_ids: userIds, role_ids: roleIds };
    },

    async createLink(
      actor: Actor,
      scope: StudioScope,
      key: string,
      body: ReportLinkCreate,
    ): Promise<ReportLinkCreated> {
      const report = await authored(scope, key);
      const now = clock.now();
      const expiresAt = body.expires_at === undefined ? null : new Date(body.expires_at);
      if (expiresAt && expiresAt <= now) throw fieldError(['body', 'expires_at'], sharingMessages.expiryPast);
      if (expiresAt && expiresAt.getTime() - now.getTime() > REPORT_LINK_LIFETIME_MAX_DAYS * DAY_MS) {
        throw fieldError(['body', 'expires_at'], sharingMessages.expiryTooFar);
      }
      const record = await reports.recordById(scope, report.id);
      const declared = record.definition.params ?? {};
      const params: Record<string, ParamValue> = {};
      const problems: ValidationErrorItem[] = [];
      for (const [name, value] of Object.entries(body.params)) {
        const param = Object.hasOwn(declared, name) ? declared[name] : undefined;
        const coerced = param ? coerceParamValue(param, value) : { error: reportMessages.unknownParam };
        if (coerced.error !== undefined)
          problems.push({ loc: ['body', 'params', name], msg: coerced.error, type: 'value_error' });
        else params[name] = coerced.value;
      }
      if (problems.length > 0) throw new AppError('validation_failed', problems);
      const token = randomBytes(32).toString('base64url');
      const link = await db.transaction(async (tx) => {
        if ((await countLiveLinks(tx, report.id, now)) >= REPORT_LINKS_MAX)
          throw conflict(sharingMessages.tooManyLinks);
        const row = await insertReportLink(tx, {
          reportId: report.id,
          tenantId: scope.tenantId!,
          tokenHash: tokenHash(token),
          params,
          expiresAt,
          createdBy: actor.user.id,
          createdAt: now,
        });
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.reportLinkCreate,
          targetType: AUDIT_TARGET_TYPES.reportLink,
          targetId: row.id,
          before: null,
          after: { report_id: report.id, params, expires_at: expiresAt?.toISOString() ?? null },
        });
        return row;
      });
      return { ...toLink(link, now), token, url: `${deps.frontendHost}/s/${token}` };
    },

    async listLinks(scope: StudioScope, key: string): Promise<ReportLinks> {
      const report = await authored(scope, key);
      const now = clock.now();
      const rows = await listReportLinks(db, report.id);
      return { data: rows.map((row) => toLink(row, now)), count: rows.length };
    },

    /** Revokes a link of a report the author can see; a revoked link stays listed, and answers 410. */
    async revokeLink(actor: Actor, scope: StudioScope, linkId: string): Promise<void> {
      if (scope.tenantId === null) throw linkNotFound();
      const link = await findLink(db, scope.tenantId, linkId);
      if (!link) throw linkNotFound();
      // The author must see the report (a restricted one hides its links too).
      await authored(scope, link.reportId).catch(() => {
        throw linkNotFound();
      });
      await db.transaction(async (tx) => {
        const revoked = await revokeLink(tx, link.id, clock.now());
        grants.delete(link.tokenHash);
        if (!revoked) return;
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.reportLinkRevoke,
          targetType: AUDIT_TARGET_TYPES.reportLink,
          targetId: link.id,
          before: { report_id: link.reportId, revoked_at: null },
          after: { report_id: link.reportId, revoked_at: revoked.revokedAt?.toISOString() ?? null },
        });
      });
    },

    /** A live link by its token's hash (`tokenHash`), with its scope and report; a revoked or expired one is a 410. */
    grant: liveLink,

    /** Whether the link's report keeps its results a while (`cache`), so its answers may be kept too. */
    keepsAnswers: (grant: LinkGrant) => cacheSeconds(grant.record.definition.cache) > 0,

    /** The report a link shows, with its first runs: opening a link is one call. */
    async reportOf({ link, scope, record, view }: LinkGrant, signal?: AbortSignal): Promise<SharedReport> {
      return withFirstRuns(
        view,
        (request) => reports.runRecord(scope, record, { ...request, params: forced(link, request.params) }, signal),
        signal,
      );
    },

    /** A chart block of a shared report drawn as SVG or PNG, with the link's fixed values forced as in a run. */
    async chartOf(
      { link, scope, record }: LinkGrant,
      request: ChartRequest,
      signal?: AbortSignal,
    ): Promise<ChartDrawing> {
      return reports.drawRecord(scope, record, { ...request, params: forced(link, request.params) }, signal);
    },

    sharedView,

    /** One block of a link's report, with its fixed values forced: sending another value is a 403. */
    async sharedRun(hashed: string, request: ReportRun, signal?: AbortSignal): Promise<ReportRunResult> {
      const { link, scope, record } = await liveLink(hashed);
      return reports.runRecord(scope, record, { ...request, params: forced(link, request.params) }, signal);
    },
  };
}

export type ReportSharingService = ReturnType<typeof createReportSharingService>;
