import {
  AuditEntriesSchema,
  AuditQuerySchema,
  HttpErrorSchema,
  PERMISSIONS,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuditService } from './audit.service.js';

/** Read-only on purpose: the audit log has no update or delete call. */
export const auditRoutes: FastifyPluginAsyncZod<{ audit: AuditService }> = async (app, options) => {
  const { audit } = options;

  app.get(
    '/audit/',
    {
      config: { access: { permission: PERMISSIONS.auditRead } },
      schema: {
        operationId: 'audit_list',
        tags: ['audit'],
        summary: 'The audit log, newest first (filters: actor_id, target_type, target_id, action)',
        querystring: AuditQuerySchema,
        response: { 200: AuditEntriesSchema, 401: HttpErrorSchema, 403: HttpErrorSchema, 422: ValidationErrorSchema },
      },
    },
    async (request) => audit.list(request.query),
  );
};
