import {
  HttpErrorSchema,
  ValidationErrorSchema,
  STUDIO_SOURCE_KINDS,
  StudioSourceIdParamsSchema,
  StudioSourcesSchema,
  StudioTablesSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.js';
import type { SourceId, StudioEngine } from './engine/engine.js';
import { scopeOf } from './request-scope.js';

const isSourceId = (id: string): id is SourceId => (STUDIO_SOURCE_KINDS as readonly string[]).includes(id);

/**
 * Studio's sources: which ones the caller may use in the tenant chosen with X-Tenant-ID (the
 * tenant-context plugin has checked membership), and their tables with columns for the editor's
 * source browser.
 */
export const studioSourcesRoutes: FastifyPluginAsyncZod<{ engine: StudioEngine }> = async (app, options) => {
  const { engine } = options;
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
      const data = await engine.listSources(scopeOf(request));
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
      const scope = scopeOf(request);
      const { source_id: sourceId } = request.params;
      const available = await engine.listSources(scope);
      if (!isSourceId(sourceId) || !available.some((source) => source.id === sourceId)) {
        throw new AppError('not_found', 'No such source');
      }
      const data = await engine.listTables(scope, sourceId);
      return { data, count: data.length };
    },
  );
};
