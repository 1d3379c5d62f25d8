import {
  HttpErrorSchema,
  IdSetSchema,
  PaginationQuerySchema,
  PermissionCreateSchema,
  PermissionIdParamsSchema,
  PermissionPublicSchema,
  PermissionsPublicSchema,
  PermissionUpdateSchema,
  PERMISSIONS,
  RoleCreateSchema,
  RoleIdParamsSchema,
  RolePermissionCreateSchema,
  RolePermissionPublicSchema,
  RolePublicSchema,
  PlanRoleGrantsSchema,
  RolesPublicSchema,
  RoleUpdateSchema,
  UserIdParamsSchema,
  UserRoleCreateSchema,
  UserRolePublicSchema,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentActor, type Access } from '../../plugins/auth.js';
import type { AuthzService } from './authz.service.js';
import { BODY_LIMITS } from '../../lib/body-limits.js';
import { denied, invalid, missing } from '../../lib/route-responses.js';

// A fresh object per route: Fastify keeps each route's config as its own.
const readAccess = (): { access: Access } => ({ access: { permission: PERMISSIONS.rolesRead } });
const writeAccess = (): { access: Access } => ({ access: { permission: PERMISSIONS.rolesWrite } });

/**
 * API-AUTHZ-2 to API-AUTHZ-5: roles, permissions and their assignments. Reads need
 * roles:read, every change roles:write; each change is audited.
 */
export const authzRoutes: FastifyPluginAsyncZod<{ authz: AuthzService }> = async (app, options) => {
  const { authz } = options;
  const tags = ['authorization'];

  // Roles

  app.get(
    '/authorization/roles',
    {
      config: readAccess(),
      schema: {
        operationId: 'authorization_list_roles',
        tags,
        summary: 'List roles (by name)',
        querystring: PaginationQuerySchema,
        response: { 200: RolesPublicSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request) => authz.roles.list(request.query),
  );

  app.post(
    '/authorization/roles',
    {
      config: writeAccess(),
      schema: {
        operationId: 'authorization_create_role',
        tags,
        summary: 'Create a role (created_by/updated_by are the caller, whatever the body says)',
        body: RoleCreateSchema,
        response: { 201: RolePublicSchema, ...invalid, ...denied },
      },
    },
    async (request, reply) => reply.code(201).send(await authz.roles.create(currentActor(request), request.body)),
  );

  app.get(
    '/authorization/roles/:role_id',
    {
      config: readAccess(),
      schema: {
        operationId: 'authorization_read_role',
        tags,
        summary: 'A role',
        params: RoleIdParamsSchema,
        response: { 200: RolePublicSchema, ...missing, ...denied },
      },
    },
    async (request) => authz.roles.get(request.params.role_id),
  );

  app.put(
    '/authorization/roles/:role_id',
    {
      config: writeAccess(),
      schema: {
        operationId: 'authorization_update_role',
        tags,
        summary: 'Update a role (absent fields are kept)',
        params: RoleIdParamsSchema,
        body: RoleUpdateSchema,
        response: { 200: RolePublicSchema, 404: HttpErrorSchema, ...invalid, ...denied },
      },
    },
    async (request) => authz.roles.update(currentActor(request), request.params.role_id, request.body),
  );

  app.delete(
    '/authorization/roles/:role_id',
    {
      config: writeAccess(),
      schema: {
        operationId: 'authorization_delete_role',
        tags,
        summary: 'Delete a role and its assignments',
        params: RoleIdParamsSchema,
        response: { 204: z.null(), ...missing, ...denied },
      },
    },
    async (request, reply) => {
      await authz.roles.remove(currentActor(request), request.params.role_id);
      return reply.code(204).send(null);
    },
  );

  // Permissions

  app.get(
    '/authorization/permissions',
    {
      config: readAccess(),
      schema: {
        operationId: 'authorization_list_permissions',
        tags,
        summary: 'List permissions (by name)',
        querystring: PaginationQuerySchema,
        response: { 200: PermissionsPublicSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request) => authz.permissions.list(request.query),
  );

  app.post(
    '/authorization/permissions',
    {
      config: writeAccess(),
      schema: {
        operationId: 'authorization_create_permission',
        tags,
        summary: 'Create a permission (created_by/updated_by are the caller, whatever the body says)',
        body: PermissionCreateSchema,
        response: { 201: PermissionPublicSchema, ...invalid, ...denied },
      },
    },
    async (request, reply) => reply.code(201).send(await authz.permissions.create(currentActor(request), request.body)),
  );

  app.get(
    '/authorization/permissions/:permission_id',
    {
      config: readAccess(),
      schema: {
        operationId: 'authorization_read_permission',
        tags,
        summary: 'A permission',
        params: PermissionIdParamsSchema,
        response: { 200: PermissionPublicSchema, ...missing, ...denied },
      },
    },
    async (request) => authz.permissions.get(request.params.permission_id),
  );

  app.put(
    '/authorization/permissions/:permission_id',
    {
      config: writeAccess(),
      schema: {
        operationId: 'authorization_update_permission',
        tags,
        summary: 'Update a permission (built-in ones keep their name)',
        params: PermissionIdParamsSchema,
        body: PermissionUpdateSchema,
        response: { 200: PermissionPublicSchema, 404: HttpErrorSchema, ...invalid, ...denied },
      },
    },
    async (request) => authz.permissions.update(currentActor(request), request.params.permission_id, request.body),
  );

  app.delete(
    '/authorization/permissions/:permission_id',
    {
      config: writeAccess(),
      schema: {
        operationId: 'authorization_delete_permission',
        tags,
        summary: 'Delete a permission and its assignments (not a built-in one)',
        params: PermissionIdParamsSchema,
        response: { 204: z.null(), 400: HttpErrorSchema, ...missing, ...denied },
      },
    },
    async (request, reply) => {
      await authz.permissions.remove(currentActor(request), request.params.permission_id);
      return reply.code(204).send(null);
    },
  );

  // Assignments

  app.post(
    '/authorization/user-role',
    {
      config: writeAccess(),
      schema: {
        operationId: 'authorization_add_user_role',
        tags,
        summary: 'Give a user one role',
        body: UserRoleCreateSchema,
        response: { 201: UserRolePublicSchema, ...invalid, ...denied },
      },
    },
    async (request, reply) => reply.code(201).send(await authz.addUserRole(currentActor(request), request.body)),
  );

  app.post(
    '/authorization/role-permission',
    {
      config: writeAccess(),
      schema: {
        operationId: 'authorization_add_role_permission',
        tags,
        summary: 'Give a role one permission',
        body: RolePermissionCreateSchema,
        response: { 201: RolePermissionPublicSchema, ...invalid, ...denied },
      },
    },
    async (request, reply) => reply.code(201).send(await authz.addRolePermission(currentActor(request), request.body)),
  );

  app.get(
    '/authorization/user/:user_id/roles',
    {
      config: readAccess(),
      schema: {
        operationId: 'authorization_list_user_roles',
        tags,
        summary: "A user's roles",
        params: UserIdParamsSchema,
        response: { 200: RolesPublicSchema, ...missing, ...denied },
      },
    },
    async (request) => authz.rolesOfUser(request.params.user_id),
  );

  app.get(
    '/authorization/user/:user_id/plan-roles',
    {
      config: readAccess(),
      schema: {
        operationId: 'authorization_list_user_plan_roles',
        tags,
        summary: 'Roles a user holds because a subscription is paid for, with the plan of each (not hand assignments)',
        params: UserIdParamsSchema,
        response: { 200: PlanRoleGrantsSchema, ...missing, ...denied },
      },
    },
    async (request) => authz.planRolesOfUser(request.params.user_id),
  );

  app.put(
    '/authorization/user/:user_id/roles',
    {
      config: writeAccess(),
      bodyLimit: BODY_LIMITS.idSet,
      schema: {
        operationId: 'authorization_set_user_roles',
        tags,
        summary: "Replace a user's roles with exactly these role ids",
        params: UserIdParamsSchema,
        body: IdSetSchema,
        response: { 200: RolesPublicSchema, ...missing, ...denied },
      },
    },
    async (request) => authz.replaceUserRoles(currentActor(request), request.params.user_id, request.body),
  );

  app.get(
    '/authorization/role/:role_id/permissions',
    {
      config: readAccess(),
      schema: {
        operationId: 'authorization_list_role_permissions',
        tags,
        summary: "A role's permissions",
        params: RoleIdParamsSchema,
        response: { 200: PermissionsPublicSchema, ...missing, ...denied },
      },
    },
    async (request) => authz.permissionsOfRole(request.params.role_id),
  );

  app.put(
    '/authorization/role/:role_id/permissions',
    {
      config: writeAccess(),
      bodyLimit: BODY_LIMITS.idSet,
      schema: {
        operationId: 'authorization_set_role_permissions',
        tags,
        summary: "Replace a role's permissions with exactly these permission ids",
        params: RoleIdParamsSchema,
        body: IdSetSchema,
        response: { 200: PermissionsPublicSchema, ...missing, ...denied },
      },
    },
    async (request) => authz.replaceRolePermissions(currentActor(request), request.params.role_id, request.body),
  );
};
