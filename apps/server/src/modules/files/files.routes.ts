import { HttpErrorSchema } from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentActor } from '../../plugins/auth.js';
import type { FilesService } from './files.service.js';

/** The name is checked by the service (400, not 422: a malformed name is a bad path, not a form error). */
const FileNameParamsSchema = z.object({ filename: z.string() });
/** The bytes of the file, streamed (never serialized). */
const FileBodySchema = z.unknown().meta({ type: 'string', format: 'binary', description: 'The file' });

export const filesRoutes: FastifyPluginAsyncZod<{ files: FilesService }> = async (app, options) => {
  const { files } = options;

  app.get(
    '/files/download/:filename',
    {
      // Any signed-in user with a verified address may ask; the service checks the role `download_{filename}`.
      config: { access: 'verified' },
      // Sent as stored: byte ranges and Content-Length must describe the file itself.
      compress: false,
      schema: {
        operationId: 'files_download',
        tags: ['files'],
        summary:
          "Download a file (needs the role download_{filename}; from the X-Tenant-ID tenant's folder when one is selected); honours Range",
        params: FileNameParamsSchema,
        response: {
          200: FileBodySchema,
          206: FileBodySchema,
          400: HttpErrorSchema,
          401: HttpErrorSchema,
          403: HttpErrorSchema,
          404: HttpErrorSchema,
          416: HttpErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const actor = currentActor(request);
      const download = await files.download(actor, request.params.filename, {
        tenantId: request.tenant?.id ?? null,
        range: request.headers.range,
        ifRange: typeof request.headers['if-range'] === 'string' ? request.headers['if-range'] : undefined,
        countAsDownload: request.method === 'GET',
      });
      request.log.info(
        {
          userId: actor.user.id,
          tenantId: request.tenant?.id ?? null,
          file: request.params.filename,
          status: download.status,
          range: request.headers.range,
        },
        'file download',
      );
      return reply.code(download.status).headers(download.headers).send(download.body);
    },
  );
};
