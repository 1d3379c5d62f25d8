import { HttpErrorSchema } from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentActor } from '../../plugins/auth.js';
import type { FilesService } from './files.service.js';
import { transferOf, type Transfer } from './file-transport.js';

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
      const tenantId = request.tenant?.id ?? null;
      const file = await files.openDownload(actor, request.params.filename, tenantId);
      let transfer: Transfer;
      try {
        transfer = transferOf(file, {
          range: request.headers.range,
          ifRange: typeof request.headers['if-range'] === 'string' ? request.headers['if-range'] : undefined,
        });
        if (request.method === 'GET') await files.recordDownload(actor, file, transfer.range, tenantId);
      } catch (error) {
        await file.handle.close();
        throw error;
      }
      // The empty file's body reads nothing from the handle.
      if (file.size === 0) await file.handle.close();
      request.log.info(
        {
          userId: actor.user.id,
          tenantId,
          file: request.params.filename,
          status: transfer.status,
          range: request.headers.range,
        },
        'file download',
      );
      return reply.code(transfer.status).headers(transfer.headers).send(transfer.stream());
    },
  );
};
