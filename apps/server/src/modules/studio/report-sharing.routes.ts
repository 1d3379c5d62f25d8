import {
  authMessages,
  ChartDrawingQuerySchema,
  EmbedChartParamsSchema,
  EmbedChartSchema,
  chartParams,
  SharedChartParamsSchema,
  EmbedRunSchema,
  EmbedSecretSchema,
  EmbedSettingsSchema,
  EmbedSettingsUpdateSchema,
  EmbedViewSchema,
  HttpErrorSchema,
  PERMISSIONS,
  ReportAudienceSchema,
  ReportIdParamsSchema,
  ReportLinkCreatedSchema,
  ReportLinkCreateSchema,
  ReportLinkIdParamsSchema,
  ReportLinksSchema,
  ReportRunResultSchema,
  ReportVisibilitySchema,
  SharedReportSchema,
  SharedRunSchema,
  ShareTokenParamsSchema,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RateLimitRule } from '../../config.js';
import { sendEncoded } from '../../lib/compression.js';
import { disconnectSignal } from '../../lib/disconnect-signal.js';
import { denied, missing } from '../../lib/route-responses.js';
import { currentActor } from '../../plugins/auth.js';
import type { ReportEmbeddingService } from './report-embedding.service.js';
import { GRANT_TTL_MS, tokenHash, type ReportSharingService } from './report-sharing.service.js';
import { createPublicAnswers } from './public-answers.js';
import { scopeOf } from './request-scope.js';
import { DRAWING_TYPES, drawingHeaders, sendDrawing } from './charts/chart-reply.js';

/** A shared report's answers are for its holder alone: never indexed, never named to another site. */
function privateAnswer(reply: FastifyReply) {
  reply
    .header('x-robots-tag', 'noindex, nofollow')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store');
}

/** Each request's link token hashed once: its rate limit asks for it twice, its grant once more. */
const hashes = new WeakMap<FastifyRequest, string>();

/** The hash of the request's link token (what its rate limit and its grant are kept under). */
const linkHash = (request: FastifyRequest) => {
  const token = (request.params as { token?: unknown } | undefined)?.token;
  if (typeof token !== 'string') return undefined;
  let hashed = hashes.get(request);
  if (hashed === undefined) {
    hashed = tokenHash(token);
    hashes.set(request, hashed);
  }
  return hashed;
};

/**
 * Who sees a report and its share links (issue 58), under /studio: an author's routes need
 * `reports:write` in the tenant chosen with X-Tenant-ID; the public ones need only a live token.
 */
export const reportSharingRoutes: FastifyPluginAsyncZod<{
  sharing: ReportSharingService;
  embedding: ReportEmbeddingService;
  limits: { linksPerAccount: RateLimitRule; linkRequests: RateLimitRule };
}> = async (app, options) => {
  const { sharing, embedding } = options;
  // A crowd opening one link gets answers made once (public-answers.ts), for as long as its grant.
  const answers = createPublicAnswers({ ttlMs: GRANT_TTL_MS });
  const manage = { access: { permission: PERMISSIONS.embedManage } } as const;
  const perEmbeddedReport = app.limit(
    'embed-report',
    options.limits.linkRequests,
    (request) => {
      const reportId = (request.body as { report_id?: unknown } | undefined)?.report_id;
      return typeof reportId === 'string' ? reportId : undefined;
    },
    authMessages.tooManyRequests,
  );
  const tags = ['studio'];
  /**
   * What running a shared report's block, or drawing its chart, may answer besides 200: fixed values
   * changed (403), no such link (404) or a revoked or expired one (410), bad input (422), too many
   * requests (429), its source out of reach (503).
   */
  const sharedRunErrors = {
    403: HttpErrorSchema,
    404: HttpErrorSchema,
    410: HttpErrorSchema,
    422: z.union([ValidationErrorSchema, HttpErrorSchema]),
    429: HttpErrorSchema,
    503: HttpErrorSchema,
  };
  const write = { access: { permission: PERMISSIONS.reportsWrite } } as const;
  const perLink = app.limit('share-link', options.limits.linkRequests, linkHash, authMessages.tooManyRequests);
  const linksPerAccount = app.limit(
    'share-link-create',
    options.limits.linksPerAccount,
    (request) => request.auth?.user.id,
    authMessages.tooManyRequests,
  );

  app.get(
    '/studio/reports/:report_id/audience',
    {
      config: write,
      schema: {
        operationId: 'studio_reports_audience',
        tags,
        summary:
          'Whom an author may name when restricting a report: the tenant’s active members (by email) and the roles',
        params: ReportIdParamsSchema,
        response: { 200: ReportAudienceSchema, ...missing, ...denied },
      },
    },
    async (request) => sharing.audience(scopeOf(request), request.params.report_id),
  );

  app.get(
    '/studio/reports/:report_id/visibility',
    {
      config: write,
      schema: {
        operationId: 'studio_reports_visibility_read',
        tags,
        summary: 'Who sees a report: every member of its tenant, or the members and roles it names',
        params: ReportIdParamsSchema,
        response: { 200: ReportVisibilitySchema, ...missing, ...denied },
      },
    },
    async (request) => sharing.visibility(scopeOf(request), request.params.report_id),
  );

  app.put(
    '/studio/reports/:report_id/visibility',
    {
      config: write,
      schema: {
        operationId: 'studio_reports_visibility_update',
        tags,
        summary:
          'Set who sees a report (audited): `tenant`, or `restricted` to the members and roles named (and its creator); anyone else gets 404',
        params: ReportIdParamsSchema,
        body: ReportVisibilitySchema,
        response: { 200: ReportVisibilitySchema, 404: HttpErrorSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request) =>
      sharing.setVisibility(currentActor(request), scopeOf(request), request.params.report_id, request.body),
  );

  app.post(
    '/studio/reports/:report_id/links',
    {
      config: write,
      preHandler: [linksPerAccount],
      schema: {
        operationId: 'studio_report_links_create',
        tags,
        summary:
          'Make a read-only share link to a report, optionally expiring and with parameter values fixed; its token is told once',
        params: ReportIdParamsSchema,
        body: ReportLinkCreateSchema,
        response: {
          201: ReportLinkCreatedSchema,
          404: HttpErrorSchema,
          409: HttpErrorSchema,
          422: ValidationErrorSchema,
          429: HttpErrorSchema,
          ...denied,
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .header('cache-control', 'no-store')
        .send(
          await sharing.createLink(currentActor(request), scopeOf(request), request.params.report_id, request.body),
        ),
  );

  app.get(
    '/studio/reports/:report_id/links',
    {
      config: write,
      schema: {
        operationId: 'studio_report_links_list',
        tags,
        summary: "A report's share links, the newest first (their tokens are never told again)",
        params: ReportIdParamsSchema,
        response: { 200: ReportLinksSchema, ...missing, ...denied },
      },
    },
    async (request) => sharing.listLinks(scopeOf(request), request.params.report_id),
  );

  app.delete(
    '/studio/links/:link_id',
    {
      config: write,
      schema: {
        operationId: 'studio_report_links_revoke',
        tags,
        summary: 'Revoke a share link (audited): it answers 410 from then on',
        params: ReportLinkIdParamsSchema,
        response: { 204: z.null(), ...missing, ...denied },
      },
    },
    async (request, reply) => {
      await sharing.revokeLink(currentActor(request), scopeOf(request), request.params.link_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/studio/public/:token',
    {
      config: { access: 'public' },
      preHandler: [perLink],
      schema: {
        operationId: 'studio_public_report',
        tags,
        summary:
          'The report a share link shows, without its SQL, with each block’s first run (no account needed); 410 once revoked or expired',
        params: ShareTokenParamsSchema,
        response: {
          200: SharedReportSchema,
          404: HttpErrorSchema,
          410: HttpErrorSchema,
          422: ValidationErrorSchema,
          429: HttpErrorSchema,
        },
      },
    },
    async (request, reply) => {
      privateAnswer(reply);
      const grant = await sharing.grant(linkHash(request)!);
      if (!sharing.keepsAnswers(grant)) return sharing.reportOf(grant, disconnectSignal(reply));
      const key = JSON.stringify([grant.link.id, grant.record.version, 'report']);
      const answer = await answers.answer(
        grant,
        key,
        () => disconnectSignal(reply),
        async (buildSignal) => {
          const shown = await sharing.reportOf(grant, buildSignal);
          const runnable = shown.blocks.filter((block) => block.kind !== 'text').length;
          return {
            // Checked and written by the route's own serializer, as a returned answer would be.
            body: reply.serialize(shown) as string,
            type: 'application/json; charset=utf-8',
            compressible: true,
            // A first run that failed is left out for the viewer to ask for: such an answer is not kept.
            keep: shown.first_runs.length === runnable,
          };
        },
      );
      return sendEncoded(request, reply, answer);
    },
  );

  app.post(
    '/studio/public/:token/run',
    {
      config: { access: 'public' },
      preHandler: [perLink],
      schema: {
        operationId: 'studio_public_run',
        tags,
        summary:
          "Run one block of a shared report, paged and cached as any run; the link's fixed values cannot be changed (403)",
        params: ShareTokenParamsSchema,
        body: SharedRunSchema,
        response: {
          200: ReportRunResultSchema,
          ...sharedRunErrors,
        },
      },
    },
    async (request, reply) => {
      privateAnswer(reply);
      return sharing.sharedRun(linkHash(request)!, request.body, disconnectSignal(reply));
    },
  );

  for (const format of ['svg', 'png'] as const) {
    app.get(
      `/studio/public/:token/charts/:block.${format}`,
      {
        config: { access: 'public' },
        preHandler: [perLink],
        schema: {
          operationId: `studio_public_chart_${format}`,
          tags,
          summary: `A chart block of a shared report drawn by the server as ${format.toUpperCase()}, as its report's own drawing; the link's fixed values cannot be changed (403)`,
          params: SharedChartParamsSchema,
          querystring: ChartDrawingQuerySchema,
          produces: [format === 'svg' ? 'image/svg+xml' : 'image/png'],
          response: {
            200: z.unknown().meta({ type: 'string', format: format === 'png' ? 'binary' : undefined }),
            ...sharedRunErrors,
          },
        },
      },
      async (request, reply) => {
        privateAnswer(reply);
        const grant = await sharing.grant(linkHash(request)!);
        const { block } = request.params;
        const { theme, width } = request.query;
        const params = chartParams(request.query);
        const chart = { block, params, format, theme, width };
        if (!sharing.keepsAnswers(grant)) {
          return sendDrawing(reply, await sharing.chartOf(grant, chart, disconnectSignal(reply)), 'no-store');
        }
        const key = JSON.stringify([grant.link.id, grant.record.version, 'chart', block, format, theme, width, params]);
        const answer = await answers.answer(
          grant,
          key,
          () => disconnectSignal(reply),
          async (buildSignal) => ({
            body: (await sharing.chartOf(grant, chart, buildSignal)).body,
            type: DRAWING_TYPES[format],
            compressible: format === 'svg',
            keep: true,
          }),
        );
        return sendEncoded(request, drawingHeaders(reply, 'no-store'), answer);
      },
    );
  }

  app.get(
    '/studio/embed/settings',
    {
      config: manage,
      schema: {
        operationId: 'studio_embed_settings_read',
        tags,
        summary: 'The origins allowed to embed the chosen tenant’s reports, and whether its embed secret is set',
        response: { 200: EmbedSettingsSchema, 400: HttpErrorSchema, ...denied },
      },
    },
    async (request) => embedding.settings(scopeOf(request)),
  );

  app.put(
    '/studio/embed/settings',
    {
      config: manage,
      schema: {
        operationId: 'studio_embed_settings_update',
        tags,
        summary: 'Set the origins (https://host[:port]) allowed to frame the chosen tenant’s reports (audited)',
        body: EmbedSettingsUpdateSchema,
        response: { 200: EmbedSettingsSchema, 400: HttpErrorSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request) => embedding.updateSettings(currentActor(request), scopeOf(request), request.body.origins),
  );

  app.post(
    '/studio/embed/secret',
    {
      config: manage,
      schema: {
        operationId: 'studio_embed_secret_rotate',
        tags,
        summary:
          'Make the chosen tenant’s embed secret anew (HS256), told this once; tokens signed with the old one stop working (audited)',
        response: { 201: EmbedSecretSchema, 400: HttpErrorSchema, ...denied },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .header('cache-control', 'no-store')
        .send(await embedding.rotateSecret(currentActor(request), scopeOf(request))),
  );

  const embedErrors = {
    403: HttpErrorSchema,
    404: HttpErrorSchema,
    422: z.union([ValidationErrorSchema, HttpErrorSchema]),
    429: HttpErrorSchema,
    503: HttpErrorSchema,
  };

  app.post(
    '/studio/embed/report',
    {
      config: { access: 'public' },
      preHandler: [perEmbeddedReport],
      schema: {
        operationId: 'studio_embed_report',
        tags,
        summary:
          'The report an embed token (signed by the tenant’s server) shows, without its SQL; a forged, expired or other-report token is a 403',
        body: EmbedViewSchema,
        response: { 200: SharedReportSchema, ...embedErrors },
      },
    },
    async (request, reply) => {
      privateAnswer(reply);
      return embedding.embeddedReport(request.body, request.headers.origin, disconnectSignal(reply));
    },
  );

  for (const format of ['svg', 'png'] as const) {
    app.post(
      `/studio/embed/charts/:block.${format}`,
      {
        config: { access: 'public' },
        preHandler: [perEmbeddedReport],
        schema: {
          operationId: `studio_embed_chart_${format}`,
          tags,
          summary: `A chart of an embedded report drawn by the server as ${format.toUpperCase()} (the token in the body), with the token’s locked parameters forced`,
          params: EmbedChartParamsSchema,
          body: EmbedChartSchema,
          produces: [format === 'svg' ? 'image/svg+xml' : 'image/png'],
          response: {
            200: z.unknown().meta({ type: 'string', format: format === 'png' ? 'binary' : undefined }),
            ...embedErrors,
          },
        },
      },
      async (request, reply) => {
        privateAnswer(reply);
        const drawing = await embedding.embeddedChart(
          request.params.block,
          format,
          request.body,
          request.headers.origin,
          disconnectSignal(reply),
        );
        return sendDrawing(reply, drawing, 'no-store');
      },
    );
  }

  app.post(
    '/studio/embed/run',
    {
      config: { access: 'public' },
      preHandler: [perEmbeddedReport],
      schema: {
        operationId: 'studio_embed_run',
        tags,
        summary:
          'Run one block of an embedded report with the token’s locked parameters forced (another value for one is a 403)',
        body: EmbedRunSchema,
        response: { 200: ReportRunResultSchema, ...embedErrors },
      },
    },
    async (request, reply) => {
      privateAnswer(reply);
      return embedding.embeddedRun(request.body, request.headers.origin, disconnectSignal(reply));
    },
  );
};
