import {
  AccountSessionsSchema,
  SessionIdParamsSchema,
  SessionsRevokedSchema,
  UserIdParamsSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentActor, currentAuth } from '../../plugins/auth.js';
import type { SessionService } from './sessions.service.js';
import { denied, missing } from '../../lib/route-responses.js';

/** The caller's own sign-ins (the Security tab), and a superuser's "sign out everywhere" (decision 027). */
export const sessionsRoutes: FastifyPluginAsyncZod<{ sessions: SessionService }> = async (app, options) => {
  const { sessions } = options;
  const tags = ['users'];

  app.get(
    '/users/me/sessions',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'users_list_my_sessions',
        tags,
        summary: 'Own sessions that can still sign in, the one of this request marked current',
        response: { 200: AccountSessionsSchema, ...denied },
      },
    },
    async (request) => sessions.listOwn(currentAuth(request)),
  );

  app.delete(
    '/users/me/sessions/:session_id',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'users_revoke_my_session',
        tags,
        summary: "Sign out one of own sessions (this request's own: a logout); another user's is a 404",
        params: SessionIdParamsSchema,
        response: { 204: z.null(), ...missing, ...denied },
      },
    },
    async (request, reply) => {
      await sessions.revokeOwn(currentActor(request), request.params.session_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/users/me/sessions/revoke-others',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'users_revoke_my_other_sessions',
        tags,
        summary: 'Sign out every own session but the one of this request',
        response: { 200: SessionsRevokedSchema, ...denied },
      },
    },
    async (request) => ({ revoked: await sessions.revokeOthers(currentActor(request)) }),
  );

  app.post(
    '/users/:user_id/sessions/revoke',
    {
      config: { access: 'superuser' },
      schema: {
        operationId: 'users_revoke_sessions',
        tags,
        summary: 'Sign a user out everywhere (superusers only)',
        params: UserIdParamsSchema,
        response: { 200: SessionsRevokedSchema, ...missing, ...denied },
      },
    },
    async (request) => ({ revoked: await sessions.revokeAllAsAdmin(currentActor(request), request.params.user_id) }),
  );
};
