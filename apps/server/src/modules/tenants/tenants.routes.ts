import {
  HttpErrorSchema,
  PaginationQuerySchema,
  PERMISSIONS,
  TenantConnectionCheckSchema,
  TenantCreateSchema,
  TenantIdParamsSchema,
  TenantMembersSchema,
  tenantMessages,
  TenantPublicSchema,
  TenantsPublicSchema,
  TenantSummariesSchema,
  TenantTablesSchema,
  TenantUpdateSchema,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../lib/errors.js';
import { currentActor, currentAuth } from '../../plugins/auth.js';
import type { TenantContext } from '../../plugins/tenant-context.js';
import type { TenantsService } from './tenants.service.js';
import { BODY_LIMITS } from '../../lib/body-limits.js';
import { denied, missing } from '../../lib/route-responses.js';

const tenantHeaderErrors = { 403: HttpErrorSchema, 404: HttpErrorSchema };

/** The tenant chosen with `X-Tenant-ID`, for routes that only make sense inside one. */
function selectedTenant(request: FastifyRequest): TenantContext {
  if (!request.tenant) throw badRequest(tenantMessages.noTenantSelected);
  return request.tenant;
}

export const tenantsRoutes: FastifyPluginAsyncZod<{ tenants: TenantsService }> = async (app, options) => {
  const { tenants } = options;
  const tags = ['tenants'];
  const read = { access: { permission: PERMISSIONS.tenantsRead } } as const;
  const write = { access: { permission: PERMISSIONS.tenantsWrite } } as const;

  app.get(
    '/tenants/',
    {
      config: read,
      schema: {
        operationId: 'tenants_list',
        tags,
        summary: 'List tenants',
        querystring: PaginationQuerySchema,
        response: { 200: TenantsPublicSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request) => tenants.list(request.query),
  );

  app.post(
    '/tenants/',
    {
      config: write,
      schema: {
        operationId: 'tenants_create',
        tags,
        summary: 'Create a tenant (its database URL is stored encrypted and shown masked)',
        body: TenantCreateSchema,
        response: { 201: TenantPublicSchema, 409: HttpErrorSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request, reply) => reply.code(201).send(await tenants.create(currentActor(request), request.body)),
  );

  app.get(
    '/tenants/current/tables',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'tenants_list_current_tables',
        tags,
        summary: 'Tables and views in the database of the tenant selected with X-Tenant-ID',
        querystring: PaginationQuerySchema,
        response: {
          200: TenantTablesSchema,
          400: HttpErrorSchema,
          409: HttpErrorSchema,
          422: ValidationErrorSchema,
          503: HttpErrorSchema,
          ...denied,
          ...tenantHeaderErrors,
        },
      },
    },
    async (request) => tenants.listTables(selectedTenant(request), request.query),
  );

  app.get(
    '/tenants/:tenant_id',
    {
      config: read,
      schema: {
        operationId: 'tenants_read',
        tags,
        summary: 'A tenant by id',
        params: TenantIdParamsSchema,
        response: { 200: TenantPublicSchema, ...missing, ...denied },
      },
    },
    async (request) => tenants.get(request.params.tenant_id),
  );

  app.put(
    '/tenants/:tenant_id',
    {
      config: write,
      schema: {
        operationId: 'tenants_update',
        tags,
        summary: 'Update a tenant (sending the masked database URL back keeps the stored password)',
        params: TenantIdParamsSchema,
        body: TenantUpdateSchema,
        response: {
          200: TenantPublicSchema,
          404: HttpErrorSchema,
          409: HttpErrorSchema,
          422: ValidationErrorSchema,
          ...denied,
        },
      },
    },
    async (request) => tenants.update(currentActor(request), request.params.tenant_id, request.body),
  );

  app.delete(
    '/tenants/:tenant_id',
    {
      config: write,
      schema: {
        operationId: 'tenants_delete',
        tags,
        summary: 'Delete a tenant and its memberships (its database is not touched)',
        params: TenantIdParamsSchema,
        response: { 204: z.null(), ...missing, ...denied },
      },
    },
    async (request, reply) => {
      await tenants.remove(currentActor(request), request.params.tenant_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/tenants/:tenant_id/check-connection',
    {
      config: write,
      schema: {
        operationId: 'tenants_check_connection',
        tags,
        summary: "Connect to the tenant's database: the server version and latency, or the driver's reason",
        params: TenantIdParamsSchema,
        response: { 200: TenantConnectionCheckSchema, ...missing, ...denied },
      },
    },
    async (request) => tenants.checkConnection(request.params.tenant_id),
  );

  app.get(
    '/tenants/:tenant_id/members',
    {
      config: write,
      schema: {
        operationId: 'tenants_list_members',
        tags,
        summary: 'Ids of the users who belong to the tenant',
        params: TenantIdParamsSchema,
        response: { 200: TenantMembersSchema, ...missing, ...denied },
      },
    },
    async (request) => tenants.getMembers(request.params.tenant_id),
  );

  app.put(
    '/tenants/:tenant_id/members',
    {
      config: write,
      bodyLimit: BODY_LIMITS.tenantMembers,
      schema: {
        operationId: 'tenants_set_members',
        tags,
        summary: 'Replace the members of the tenant with the given user ids',
        params: TenantIdParamsSchema,
        body: TenantMembersSchema,
        response: { 200: TenantMembersSchema, ...missing, ...denied },
      },
    },
    async (request) => tenants.setMembers(currentActor(request), request.params.tenant_id, request.body),
  );

  app.get(
    '/users/me/tenants',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'tenants_list_mine',
        tags,
        summary: 'Active tenants the caller may select (every active one for a superuser)',
        querystring: PaginationQuerySchema,
        response: { 200: TenantSummariesSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request) => tenants.myTenants(currentAuth(request), request.query),
  );
};
