import {
  HttpErrorSchema,
  ValidationErrorSchema,
  StudioSourceIdParamsSchema,
  StudioSourcesSchema,
  StudioTablesSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { scopeOf } from './request-scope.js';
import type { SourcesService } from './sources.service.js';

/**
 * Studio's sources: which ones the caller may use in the tenant chosen with X-Tenant-ID (the
 * tenant-context plugin has checked membership), and their tables with columns for the editor's
 * source browser.
 */
export const studioSourcesRoutes: FastifyPluginAsyncZod<{ sources: SourcesService }> = async (app, options) => {
  const { sources } = options;
  const tags = ['studio'];
  const errors = { 401: HttpErrorSchema, 403: HttpErrorSchema, 404: HttpErrorSchema };

  app.get(
    '/studio/sources',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'studio_list_sources',
        tags,
        summary: 'The Studio sources of the tenant chosen with X-Tenant-ID (the demo source always)',
        response: { 200: StudioSourcesSchema, ...errors },
      },
    },
    async (request) => {
      const data = await sources.list(scopeOf(request));
      return { data, count: data.length };
    },
  );

  app.get(
    '/studio/sources/:source_id/tables',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'studio_list_source_tables',
        tags,
        summary: "A Studio source's tables with their columns",
        params: StudioSourceIdParamsSchema,
        response: { 200: StudioTablesSchema, 422: ValidationErrorSchema, ...errors },
      },
    },
    async (request) => {
      const data = await sources.tables(scopeOf(request), request.params.source_id);
      return { data, count: data.length };
    },
  );
};
