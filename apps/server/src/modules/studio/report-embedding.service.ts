import { randomBytes } from 'node:crypto';
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  EMBED_TOKEN_LIFETIME_MAX_SECONDS,
  sharingMessages,
  type EmbedChart,
  type EmbedRun,
  type EmbedSecret,
  type EmbedSettings,
  type ReportRunResult,
  type SharedReport,
  type ValidationErrorItem,
} from '@dataplatform/contract';
import { eq } from 'drizzle-orm';
import { createDecoder, createVerifier, TokenError } from 'fast-jwt';
import type { Database, DbOrTx } from '../../db/client.js';
import { embedSettings } from '../../db/schema/index.js';
import type { Actor } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, badRequest, forbidden } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AuditService } from '../audit/audit.service.js';
import type { ParamValue, StudioScope } from './engine/engine.js';
import { withFirstRuns, type ReportSharingService } from './report-sharing.service.js';
import type { ChartDrawing } from './charts/chart-drawing.js';
import type { ReportsService } from './reports.service.js';

/** `https://host[:port]`, or `http://` for localhost: an origin as browsers send it, never a path. */
const ORIGIN = /^(https:\/\/[a-z0-9.-]+(:\d{1,5})?|http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?)$/;

/** Verifiers by tenant and secret: building one costs more than checking a token with it. */
const VERIFIERS_MAX = 500;

const decode = createDecoder();

type Settings = typeof embedSettings.$inferSelect;

async function settingsOf(db: DbOrTx, tenantId: string): Promise<Settings | undefined> {
  const [row] = await db.select().from(embedSettings).where(eq(embedSettings.tenantId, tenantId)).limit(1);
  return row;
}

const toSettings = (row: Settings | undefined): EmbedSettings => ({
  origins: row?.origins ?? [],
  secret_set: Boolean(row?.secretSealed),
  secret_created_at: row?.secretCreatedAt?.toISOString() ?? null,
});

const refused = (detail: string = sharingMessages.embedTokenInvalid) => forbidden(detail);

/**
 * Embedding (issue 58): a tenant's admin (`embed:manage`) lists the origins allowed to frame its
 * reports and gets an HS256 secret, shown once. The tenant's server signs a short-lived token
 * `{ report, params, exp }`; the product checks the signature with that tenant's secret and the expiry
 * against its clock, refuses a token for another report, and forces the locked parameters on every run.
 */
export function createReportEmbeddingService(deps: {
  db: Database;
  clock: Clock;
  audit: AuditService;
  secrets: SecretBox;
  reports: Pick<ReportsService, 'recordById' | 'runById' | 'runRecord' | 'drawChartById'>;
  sharing: Pick<ReportSharingService, 'sharedView'>;
  /** The app's own origin (FRONTEND_HOST): its pages call the embed API. */
  ownOrigin: string;
  /** The report's tenant (active tenants only) and the scope its runs take. */
  reportScope: (reportId: string) => Promise<StudioScope | null>;
}) {
  const { db, clock, audit, secrets } = deps;
  const verifiers = new Map<string, ReturnType<typeof createVerifier>>();

  function verifierFor(tenantId: string, settings: Settings): ReturnType<typeof createVerifier> {
    // The sealed text differs with every secret (a random IV each time): a rotation is never served stale.
    const key = `${tenantId}:${settings.secretSealed}`;
    let verify = verifiers.get(key);
    if (!verify) {
      const secret = secrets.open(settings.secretSealed!, tenantId);
      // Expiry is checked below against the injected clock; fast-jwt would read the system time.
      verify = createVerifier({
        key: secret,
        algorithms: ['HS256'],
        requiredClaims: ['report', 'exp'],
        ignoreExpiration: true,
        ignoreNotBefore: true,
      });
      if (verifiers.size >= VERIFIERS_MAX) verifiers.clear();
      verifiers.set(key, verify);
    }
    return verify;
  }

  /** The locked values over the asked ones; another value for a locked one is a 403. */
  function forceLocked(asked: Record<string, ParamValue>, locked: Record<string, ParamValue>) {
    for (const [name, value] of Object.entries(locked)) {
      if (Object.hasOwn(asked, name) && String(asked[name]) !== String(value)) {
        throw forbidden(sharingMessages.paramLocked);
      }
    }
    return { ...asked, ...locked };
  }

  /** The token checked for `reportId`: its tenant's scope and its locked values, or a 403. */
  async function check(reportId: string, token: string, origin: string | undefined) {
    let claimed: unknown;
    try {
      claimed = (decode(token) as { report?: unknown }).report;
    } catch {
      throw refused();
    }
    if (claimed !== reportId) throw refused(sharingMessages.embedOtherReport);
    const scope = await deps.reportScope(reportId);
    if (!scope?.tenantId) throw refused();
    const settings = await settingsOf(db, scope.tenantId);
    if (!settings?.secretSealed) throw refused();
    if (origin !== undefined && origin !== deps.ownOrigin && !settings.origins.includes(origin)) {
      throw refused(sharingMessages.embedOriginRefused);
    }
    let payload: { exp?: unknown; params?: unknown };
    try {
      payload = verifierFor(scope.tenantId, settings)(token) as typeof payload;
    } catch (error) {
      if (error instanceof TokenError) throw refused();
      throw error;
    }
    const now = clock.now().getTime() / 1000;
    if (typeof payload.exp !== 'number' || payload.exp <= now) throw refused(sharingMessages.embedTokenExpired);
    if (payload.exp - now > EMBED_TOKEN_LIFETIME_MAX_SECONDS) throw refused(sharingMessages.embedTokenTooLong);
    const params = payload.params ?? {};
    if (typeof params !== 'object' || params === null || Array.isArray(params)) throw refused();
    const locked: Record<string, ParamValue> = {};
    for (const [name, value] of Object.entries(params)) {
      if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) throw refused();
      locked[name] = value as ParamValue;
    }
    return { scope, locked };
  }

  return {
    async settings(scope: StudioScope): Promise<EmbedSettings> {
      if (scope.tenantId === null) throw badRequest(sharingMessages.embedNoTenant);
      return toSettings(await settingsOf(db, scope.tenantId));
    },

    async updateSettings(actor: Actor, scope: StudioScope, origins: readonly string[]): Promise<EmbedSettings> {
      const tenantId = scope.tenantId;
      if (tenantId === null) throw badRequest(sharingMessages.embedNoTenant);
      const normalized = [...new Set(origins.map((origin) => origin.trim().toLowerCase().replace(/\/+$/, '')))];
      const problems: ValidationErrorItem[] = [];
      normalized.forEach((origin, index) => {
        if (!ORIGIN.test(origin))
          problems.push({ loc: ['body', 'origins', index], msg: sharingMessages.originInvalid, type: 'value_error' });
      });
      if (problems.length > 0) throw new AppError('validation_failed', problems);
      const row = await db.transaction(async (tx) => {
        const before = await settingsOf(tx, tenantId);
        const [saved] = await tx
          .insert(embedSettings)
          .values({ tenantId, origins: normalized, updatedAt: clock.now() })
          .onConflictDoUpdate({ target: embedSettings.tenantId, set: { origins: normalized, updatedAt: clock.now() } })
          .returning();
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.embedSettingsUpdate,
          targetType: AUDIT_TARGET_TYPES.tenant,
          targetId: tenantId,
          before: { origins: before?.origins ?? [] },
          after: { origins: normalized },
        });
        return saved;
      });
      return toSettings(row);
    },

    /** A new secret, told this once; tokens signed with the old one stop working at once. */
    async rotateSecret(actor: Actor, scope: StudioScope): Promise<EmbedSecret> {
      const tenantId = scope.tenantId;
      if (tenantId === null) throw badRequest(sharingMessages.embedNoTenant);
      const secret = randomBytes(32).toString('base64url');
      const now = clock.now();
      const sealed = secrets.seal(secret, tenantId);
      await db.transaction(async (tx) => {
        const before = await settingsOf(tx, tenantId);
        await tx
          .insert(embedSettings)
          .values({ tenantId, secretSealed: sealed, secretCreatedAt: now, updatedAt: now })
          .onConflictDoUpdate({
            target: embedSettings.tenantId,
            set: { secretSealed: sealed, secretCreatedAt: now, updatedAt: now },
          });
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.embedSecretRotate,
          targetType: AUDIT_TARGET_TYPES.tenant,
          targetId: tenantId,
          before: { secret_created_at: before?.secretCreatedAt?.toISOString() ?? null },
          after: { secret_created_at: now.toISOString() },
        });
      });
      return { secret, created_at: now.toISOString() };
    },

    /** The report an embed token shows, as a share link shows it, its locked values marked. */
    async embeddedReport(
      body: { report_id: string; token: string },
      origin?: string,
      signal?: AbortSignal,
    ): Promise<SharedReport> {
      const { scope, locked } = await check(body.report_id, body.token, origin);
      const record = await deps.reports.recordById(scope, body.report_id);
      return withFirstRuns(
        deps.sharing.sharedView(record, locked, null),
        (request) =>
          deps.reports.runRecord(scope, record, { ...request, params: forceLocked(request.params, locked) }, signal),
        signal,
      );
    },

    /** One block of the embedded report with the token's values forced: another value for one is a 403. */
    async embeddedRun(body: EmbedRun, origin?: string, signal?: AbortSignal): Promise<ReportRunResult> {
      const { scope, locked } = await check(body.report_id, body.token, origin);
      const params = forceLocked(body.params, locked);
      const { token: _token, report_id: reportId, ...run } = body;
      return deps.reports.runById(scope, reportId, { ...run, params }, signal);
    },

    /** A chart of the embedded report drawn by the server, the token's values forced as in a run. */
    async embeddedChart(
      block: string,
      format: 'svg' | 'png',
      body: EmbedChart,
      origin?: string,
      signal?: AbortSignal,
    ): Promise<ChartDrawing> {
      const { scope, locked } = await check(body.report_id, body.token, origin);
      const params = forceLocked(body.params, locked);
      return deps.reports.drawChartById(
        scope,
        body.report_id,
        { block, params, format, theme: body.theme, width: body.width },
        signal,
      );
    },

    /**
     * The origins that may frame `/embed/{reportId}` (its page's CSP `frame-ancestors`): the report's
     * tenant's allow-list; none for a report that does not exist or a tenant without a secret.
     */
    async frameAncestors(reportId: string): Promise<string[]> {
      const scope = await deps.reportScope(reportId);
      if (!scope?.tenantId) return [];
      const settings = await settingsOf(db, scope.tenantId);
      return settings?.secretSealed ? settings.origins : [];
    },
  };
}

export type ReportEmbeddingService = ReturnType<typeof createReportEmbeddingService>;
