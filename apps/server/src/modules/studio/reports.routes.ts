import {
  ChartBlockParamsSchema,
  ChartDrawingQuerySchema,
  chartParams,
  HttpErrorSchema,
  PERMISSIONS,
  ReportCreateSchema,
  ReportDefinitionErrorSchema,
  ReportExportSchema,
  ReportIdParamsSchema,
  ReportListQuerySchema,
  ReportParamOptionsParamsSchema,
  ReportParamOptionsSchema,
  ReportPreviewSchema,
  ReportPublicSchema,
  ReportRunResultSchema,
  ReportRunSchema,
  ReportsSchema,
  ReportUpdateSchema,
  ReportVersionParamsSchema,
  ReportVersionsSchema,
  ReportVersionTextSchema,
  StudioAccessSchema,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BODY_LIMITS } from '../../lib/body-limits.js';
import { disconnectSignal } from '../../lib/disconnect-signal.js';
import { denied, missing } from '../../lib/route-responses.js';
import { currentActor, currentAuth } from '../../plugins/auth.js';
import type { HasPermission } from '../../lib/auth-context.js';
import { sendDrawing } from './charts/chart-reply.js';
import { csvFileName, csvReadable } from './csv-export.js';
import type { ReportsService } from './reports.service.js';
import { scopeOf } from './request-scope.js';

/** What a run may answer besides its rows: the engine's refusals and limits. */
const runErrors = {
  404: HttpErrorSchema,
  409: HttpErrorSchema,
  429: HttpErrorSchema,
  503: HttpErrorSchema,
  ...denied,
};

/** The CSV text of a download, streamed (never serialized). */
const CsvBodySchema = z.unknown().meta({ type: 'string', description: 'CSV (RFC 4180), a header line first' });

/** A chart's drawing, sent as it is (never serialized). */
const ChartBodySchema = {
  svg: z.unknown().meta({ type: 'string', description: 'SVG text (image/svg+xml)' }),
  png: z.unknown().meta({ type: 'string', format: 'binary', description: 'PNG image' }),
};

export const reportsRoutes: FastifyPluginAsyncZod<{
  reports: ReportsService;
  hasPermission: HasPermission;
  /** STUDIO_EXTRACT_MAX_BYTES, told by /studio/access so a screen refuses a larger file before sending it. */
  extractMaxBytes: number;
}> = async (app, options) => {
  const { reports, hasPermission, extractMaxBytes } = options;
  const tags = ['studio'];
  const write = { access: { permission: PERMISSIONS.reportsWrite } } as const;
  const read = { access: 'user' } as const;

  app.get(
    '/studio/access',
    {
      config: read,
      schema: {
        operationId: 'studio_access',
        tags,
        summary: 'What the caller may do in Studio (the screens offer only that; every route checks anyway)',
        response: { 200: StudioAccessSchema, ...denied },
      },
    },
    async (request) => {
      const auth = currentAuth(request);
      const [reportsWrite, sourcesWrite, embedManage] = await Promise.all([
        hasPermission(auth, PERMISSIONS.reportsWrite),
        hasPermission(auth, PERMISSIONS.sourcesWrite),
        hasPermission(auth, PERMISSIONS.embedManage),
      ]);
      return {
        reports_write: reportsWrite,
        sources_write: sourcesWrite,
        embed_manage: embedManage,
        extract_max_bytes: extractMaxBytes,
      };
    },
  );

  app.get(
    '/studio/reports',
    {
      config: read,
      schema: {
        operationId: 'studio_reports_list',
        tags,
        summary:
          'Reports of the tenant chosen with X-Tenant-ID, after the built-in ones (without a tenant: the built-ins only)',
        querystring: ReportListQuerySchema,
        response: { 200: ReportsSchema, 422: ValidationErrorSchema, 404: HttpErrorSchema, ...denied },
      },
    },
    async (request) => reports.list(scopeOf(request), request.query),
  );

  app.post(
    '/studio/reports',
    {
      config: write,
      bodyLimit: BODY_LIMITS.reportDefinition,
      schema: {
        operationId: 'studio_reports_create',
        tags,
        summary: 'Create a report in the chosen tenant from its YAML definition (version 1)',
        body: ReportCreateSchema,
        response: {
          201: ReportPublicSchema,
          400: HttpErrorSchema,
          404: HttpErrorSchema,
          409: HttpErrorSchema,
          413: HttpErrorSchema,
          422: ReportDefinitionErrorSchema,
          ...denied,
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await reports.create(currentActor(request), scopeOf(request), request.body)),
  );

  app.get(
    '/studio/reports/:report_id',
    {
      config: read,
      schema: {
        operationId: 'studio_reports_read',
        tags,
        summary: 'A report by id or slug, with its current definition, parameters and blocks',
        params: ReportIdParamsSchema,
        response: { 200: ReportPublicSchema, ...missing, ...denied },
      },
    },
    async (request) => reports.get(scopeOf(request), request.params.report_id),
  );

  app.put(
    '/studio/reports/:report_id',
    {
      config: write,
      bodyLimit: BODY_LIMITS.reportDefinition,
      schema: {
        operationId: 'studio_reports_update',
        tags,
        summary:
          'Save a new version of a report; `version` names the one edited, and a stale one is a 409 report_conflict',
        params: ReportIdParamsSchema,
        body: ReportUpdateSchema,
        response: {
          200: ReportPublicSchema,
          404: HttpErrorSchema,
          409: HttpErrorSchema,
          413: HttpErrorSchema,
          422: ReportDefinitionErrorSchema,
          ...denied,
        },
      },
    },
    async (request) => reports.update(currentActor(request), scopeOf(request), request.params.report_id, request.body),
  );

  app.delete(
    '/studio/reports/:report_id',
    {
      config: write,
      schema: {
        operationId: 'studio_reports_delete',
        tags,
        summary: 'Delete a report and its versions (built-in reports cannot be deleted)',
        params: ReportIdParamsSchema,
        response: { 204: z.null(), ...missing, ...denied },
      },
    },
    async (request, reply) => {
      await reports.remove(currentActor(request), scopeOf(request), request.params.report_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/studio/reports/:report_id/versions',
    {
      config: read,
      schema: {
        operationId: 'studio_reports_versions',
        tags,
        summary: 'The saved versions of a report, newest first: who saved each and when',
        params: ReportIdParamsSchema,
        querystring: ReportListQuerySchema,
        response: { 200: ReportVersionsSchema, ...missing, ...denied },
      },
    },
    async (request) => reports.versions(scopeOf(request), request.params.report_id, request.query),
  );

  app.get(
    '/studio/reports/:report_id/versions/:version',
    {
      config: read,
      schema: {
        operationId: 'studio_reports_version',
        tags,
        summary: 'One saved version of a report with its whole text (to compare two versions)',
        params: ReportVersionParamsSchema,
        response: { 200: ReportVersionTextSchema, ...missing, ...denied },
      },
    },
    async (request) => reports.version(scopeOf(request), request.params.report_id, request.params.version),
  );

  app.post(
    '/studio/reports/:report_id/versions/:version/restore',
    {
      config: write,
      schema: {
        operationId: 'studio_reports_restore',
        tags,
        summary: 'Save the text of an earlier version again, as a new version',
        params: ReportVersionParamsSchema,
        response: {
          200: ReportPublicSchema,
          404: HttpErrorSchema,
          422: ReportDefinitionErrorSchema,
          ...denied,
        },
      },
    },
    async (request) =>
      reports.restore(currentActor(request), scopeOf(request), request.params.report_id, request.params.version),
  );

  app.post(
    '/studio/reports/:report_id/run',
    {
      config: read,
      schema: {
        operationId: 'studio_reports_run',
        tags,
        summary:
          'Run one block of a report: a table answers one page and the count of the whole result, a chart or KPI its rows',
        params: ReportIdParamsSchema,
        body: ReportRunSchema,
        // A 422 is a field of the request, or the engine refusing the query (query_refused, …).
        response: { 200: ReportRunResultSchema, 422: z.union([ValidationErrorSchema, HttpErrorSchema]), ...runErrors },
      },
    },
    async (request, reply) =>
      reports.run(scopeOf(request), request.params.report_id, request.body, disconnectSignal(reply)),
  );

  app.post(
    '/studio/reports/:report_id/export',
    {
      config: read,
      schema: {
        operationId: 'studio_reports_export',
        tags,
        summary:
          'Download every row of a table block as CSV, in the order asked, streamed (at most STUDIO_EXPORT_MAX_ROWS rows: more is result_too_large before the first row)',
        params: ReportIdParamsSchema,
        body: ReportExportSchema,
        produces: ['text/csv'],
        response: { 200: CsvBodySchema, 422: z.union([ValidationErrorSchema, HttpErrorSchema]), ...runErrors },
      },
    },
    async (request, reply) => {
      const { report, stream } = await reports.exportBlock(
        scopeOf(request),
        request.params.report_id,
        request.body,
        disconnectSignal(reply),
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csvFileName(report.slug, request.body.block)}"`)
        .header('cache-control', 'no-store')
        .header('x-total-count', String(stream.count))
        .send(csvReadable(stream));
    },
  );

  for (const format of ['svg', 'png'] as const) {
    app.get(
      `/studio/reports/:report_id/charts/:block.${format}`,
      {
        config: read,
        schema: {
          operationId: `studio_reports_chart_${format}`,
          tags,
          summary:
            format === 'svg'
              ? 'A chart block drawn by the server as SVG, safe to inline (no script, no outside reference), from the rows a run of it gives; `param.<name>` sets a parameter'
              : 'A chart block drawn by the server as PNG (twice the pixels of `width`, on the theme’s paper), as its SVG',
          params: ChartBlockParamsSchema,
          querystring: ChartDrawingQuerySchema,
          produces: [format === 'svg' ? 'image/svg+xml' : 'image/png'],
          response: {
            200: ChartBodySchema[format],
            422: z.union([ValidationErrorSchema, HttpErrorSchema]),
            ...runErrors,
          },
        },
      },
      async (request, reply) => {
        const { theme, width } = request.query;
        const { drawing } = await reports.drawChart(
          scopeOf(request),
          request.params.report_id,
          { block: request.params.block, params: chartParams(request.query), format, theme, width },
          disconnectSignal(reply),
        );
        return sendDrawing(reply, drawing, 'private, no-cache');
      },
    );
  }

  app.get(
    '/studio/reports/:report_id/params/:param/options',
    {
      config: read,
      schema: {
        operationId: 'studio_reports_param_options',
        tags,
        summary: "The values a select parameter's query offers (its first column), run with the other defaults",
        params: ReportParamOptionsParamsSchema,
        response: {
          200: ReportParamOptionsSchema,
          422: z.union([ValidationErrorSchema, HttpErrorSchema]),
          ...runErrors,
        },
      },
    },
    async (request, reply) =>
      reports.paramOptions(scopeOf(request), request.params.report_id, request.params.param, disconnectSignal(reply)),
  );

  app.post(
    '/studio/preview',
    {
      config: write,
      bodyLimit: BODY_LIMITS.reportDefinition,
      schema: {
        operationId: 'studio_preview',
        tags,
        summary: 'Run one block of an unsaved definition (the editor’s live preview); nothing is cached',
        body: ReportPreviewSchema,
        response: {
          200: ReportRunResultSchema,
          413: HttpErrorSchema,
          422: z.union([ReportDefinitionErrorSchema, HttpErrorSchema]),
          ...runErrors,
        },
      },
    },
    async (request, reply) => reports.preview(scopeOf(request), request.body, disconnectSignal(reply)),
  );
};
