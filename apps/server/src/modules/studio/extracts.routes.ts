import {
  HttpErrorSchema,
  PERMISSIONS,
  STUDIO_EXTRACT_CONTENT_TYPES,
  StudioExtractIdParamsSchema,
  StudioExtractSchema,
  StudioExtractsSchema,
  StudioExtractUploadQuerySchema,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { disconnectSignal } from '../../lib/disconnect-signal.js';
import { denied, missing } from '../../lib/route-responses.js';
import { currentActor } from '../../plugins/auth.js';
import type { ExtractsService } from './extracts.service.js';
import { scopeOf } from './request-scope.js';

/** The file, streamed to disk by the service (never parsed or buffered here). */
const ExtractBodySchema = z
  .unknown()
  .meta({ type: 'string', format: 'binary', description: 'The CSV or Parquet file, as the whole body' });

/**
 * Studio extracts of the tenant chosen with X-Tenant-ID (the tenant-context plugin has checked the
 * caller belongs to it): upload a CSV or Parquet file as a table of its `extract` source, list,
 * delete. Uploading and deleting need `sources:write`.
 */
export const extractsRoutes: FastifyPluginAsyncZod<{
  extracts: ExtractsService;
  /** How long an upload's body may take to arrive (STUDIO_EXTRACT_UPLOAD_TIMEOUT_SECONDS). */
  uploadTimeoutMs: number;
}> = async (app, options) => {
  const { extracts, uploadTimeoutMs } = options;
  const tags = ['studio'];
  const write = { access: { permission: PERMISSIONS.sourcesWrite } } as const;

  // The body of an upload is the file: every content type reaches the handler as the raw stream
  // (in this plugin only), and the service refuses all but CSV and Parquet with a 422.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => {
    done(null, payload);
  });

  app.get(
    '/studio/extracts',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'studio_extracts_list',
        tags,
        summary: 'The extracts of the tenant chosen with X-Tenant-ID, by name, each with its table and columns',
        response: { 200: StudioExtractsSchema, 400: HttpErrorSchema, 404: HttpErrorSchema, ...denied },
      },
    },
    async (request) => extracts.list(scopeOf(request)),
  );

  app.post(
    '/studio/extracts',
    {
      config: { ...write, bodyTimeoutMs: uploadTimeoutMs },
      schema: {
        operationId: 'studio_extracts_upload',
        tags,
        summary: `Upload a CSV (${STUDIO_EXTRACT_CONTENT_TYPES.csv}) or Parquet (${STUDIO_EXTRACT_CONTENT_TYPES.parquet}) file as the body: it becomes the table \`name\` of the tenant's extract source, typed by DuckDB's reader`,
        consumes: [STUDIO_EXTRACT_CONTENT_TYPES.csv, STUDIO_EXTRACT_CONTENT_TYPES.parquet],
        querystring: StudioExtractUploadQuerySchema,
        body: ExtractBodySchema,
        response: {
          201: StudioExtractSchema,
          400: HttpErrorSchema,
          404: HttpErrorSchema,
          409: HttpErrorSchema,
          413: HttpErrorSchema,
          422: z.union([ValidationErrorSchema, HttpErrorSchema]),
          // The extract store failed (STUDIO_STORAGE_URL): nothing of the upload is kept.
          503: HttpErrorSchema,
          ...denied,
        },
      },
    },
    async (request, reply) => {
      try {
        const created = await extracts.upload(currentActor(request), scopeOf(request), {
          name: request.query.name,
          contentType: request.headers['content-type'],
          contentLength: request.headers['content-length'],
          body: request.body as Readable | undefined,
          signal: disconnectSignal(reply),
        });
        return await reply.code(201).send(created);
      } catch (error) {
        // Whatever of the body was not read is not waited for: the connection closes after the answer.
        if (!request.raw.readableEnded) reply.header('connection', 'close');
        throw error;
      }
    },
  );

  app.delete(
    '/studio/extracts/:extract_id',
    {
      config: write,
      schema: {
        operationId: 'studio_extracts_delete',
        tags,
        summary: "Delete an extract: its table, its file and its record (another tenant's extract is a 404)",
        params: StudioExtractIdParamsSchema,
        response: { 204: z.null(), 400: HttpErrorSchema, ...missing, ...denied },
      },
    },
    async (request, reply) => {
      await extracts.remove(currentActor(request), scopeOf(request), request.params.extract_id);
      return reply.code(204).send(null);
    },
  );
};
