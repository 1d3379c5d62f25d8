import {
  HttpErrorSchema,
  MessageSchema,
  PERMISSIONS,
  UpdatePasswordSchema,
  UserCreateSchema,
  UserIdParamsSchema,
  UserListQuerySchema,
  UserMeSchema,
  UserPublicSchema,
  UserRegisterSchema,
  UsersPublicSchema,
  UserUpdateMeSchema,
  UserUpdateSchema,
  userMessages,
  authMessages,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { currentActor, currentAuth } from '../../plugins/auth.js';
import { byField, byIp } from '../../plugins/rate-limit.js';
import type { UsersService } from './users.service.js';
import { denied, invalid, missing } from '../../lib/route-responses.js';

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService; config: Config }> = async (app, options) => {
  const { users, config } = options;
  const tags = ['users'];

  app.get(
    '/users/',
    {
      config: { access: { permission: PERMISSIONS.usersRead } },
      schema: {
        operationId: 'users_list',
        tags,
        summary: 'List users, optionally those whose e-mail or name contains q (case-insensitive)',
        querystring: UserListQuerySchema,
        response: { 200: UsersPublicSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request) => users.list(request.query),
  );

  app.post(
    '/users/',
    {
      config: { access: { permission: PERMISSIONS.usersWrite } },
      schema: {
        operationId: 'users_create',
        tags,
        summary: 'Create a user',
        body: UserCreateSchema,
        response: { 201: UserPublicSchema, ...invalid, ...denied },
      },
    },
    async (request, reply) => reply.code(201).send(await users.create(currentActor(request), request.body)),
  );

  app.post(
    '/users/signup',
    {
      config: { access: 'public' },
      preHandler: [
        app.limit('signup-ip', config.rateLimits.signupPerIp, byIp, userMessages.signupUnavailable),
        app.limit(
          'signup-account',
          config.rateLimits.signupPerAccount,
          byField('body', 'email'),
          userMessages.signupUnavailable,
        ),
      ],
      schema: {
        operationId: 'users_signup',
        tags,
        summary: 'Create an account (the answer never says whether the address was already registered)',
        body: UserRegisterSchema,
        response: { 201: MessageSchema, 422: ValidationErrorSchema, 429: HttpErrorSchema, 503: HttpErrorSchema },
      },
    },
    async (request, reply) => {
      await users.signup(request.body);
      return reply.code(201).send({ message: userMessages.signupReceived });
    },
  );

  app.get(
    '/users/me',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'users_read_me',
        tags,
        summary: 'The signed-in user, with the names of its roles',
        response: { 200: UserMeSchema, ...denied },
      },
    },
    async (request) => users.me(currentAuth(request)),
  );

  app.patch(
    '/users/me',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'users_update_me',
        tags,
        summary: 'Update own name and e-mail',
        body: UserUpdateMeSchema,
        response: { 200: UserPublicSchema, ...invalid, ...denied },
      },
    },
    async (request) => users.updateMe(currentAuth(request), request.body),
  );

  app.patch(
    '/users/me/password',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'users_update_password',
        tags,
        summary: 'Change own password (other sessions are signed out)',
        body: UpdatePasswordSchema,
        response: { 200: MessageSchema, ...invalid, ...denied },
      },
    },
    async (request) => {
      await users.changePassword(currentAuth(request), request.body);
      return { message: authMessages.passwordUpdated };
    },
  );

  app.delete(
    '/users/me',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'users_delete_me',
        tags,
        summary: 'Delete own account',
        response: { 204: z.null(), ...denied },
      },
    },
    async (request, reply) => {
      await users.deleteMe(currentAuth(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/users/:user_id',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'users_read',
        tags,
        summary: 'A user by id (own record, or any with users:read)',
        params: UserIdParamsSchema,
        response: { 200: UserPublicSchema, ...missing, ...denied },
      },
    },
    async (request) => users.get(currentAuth(request), request.params.user_id),
  );

  app.patch(
    '/users/:user_id',
    {
      config: { access: { permission: PERMISSIONS.usersWrite } },
      schema: {
        operationId: 'users_update',
        tags,
        summary: 'Update a user',
        params: UserIdParamsSchema,
        body: UserUpdateSchema,
        response: { 200: UserPublicSchema, 404: HttpErrorSchema, ...invalid, ...denied },
      },
    },
    async (request) => users.update(currentActor(request), request.params.user_id, request.body),
  );

  app.delete(
    '/users/:user_id',
    {
      config: { access: { permission: PERMISSIONS.usersWrite } },
      schema: {
        operationId: 'users_delete',
        tags,
        summary: 'Delete a user',
        params: UserIdParamsSchema,
        response: { 204: z.null(), 400: HttpErrorSchema, ...missing, ...denied },
      },
    },
    async (request, reply) => {
      await users.remove(currentActor(request), request.params.user_id);
      return reply.code(204).send(null);
    },
  );
};
