import {
  authMessages,
  EmailSchema,
  HttpErrorSchema,
  LoginFormSchema,
  MessageSchema,
  NewPasswordSchema,
  PERMISSIONS,
  TokenSchema,
  TwoFactorChallengeSchema,
  UserPublicSchema,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { currentAuth } from '../../plugins/auth.js';
import { byField, byIp } from '../../plugins/rate-limit.js';
import { toUserPublic } from '../users/users.service.js';
import type { AuthService } from './auth.service.js';
import type { SessionMeta } from '../sessions/sessions.service.js';

/** What the limited routes may answer; 503 while attempts cannot be counted (decision 049). */
const errors = { 400: HttpErrorSchema, 422: ValidationErrorSchema, 429: HttpErrorSchema, 503: HttpErrorSchema };

function sessionMeta(request: FastifyRequest): SessionMeta {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService; config: Config }> = async (app, options) => {
  const { auth, config } = options;
  const limits = config.rateLimits;
  const tags = ['login'];

  app.post(
    '/login/access-token',
    {
      config: { access: 'public' },
      // Per account, only failed attempts count: the service throttles those (login-throttle.ts).
      preHandler: [app.limit('login-ip', limits.loginPerIp, byIp, authMessages.signInUnavailable)],
      schema: {
        operationId: 'login_access_token',
        tags,
        summary: 'Log in with e-mail and password (OAuth2 password form)',
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: LoginFormSchema,
        description:
          'Answers a bearer token, or, for an account with two-factor sign-in on, a short-lived challenge token ' +
          'for `POST /login/two-factor` (no session yet).',
        response: { 200: z.union([TokenSchema, TwoFactorChallengeSchema]), ...errors },
      },
    },
    async (request, reply) => {
      const result = await auth.login(request.body, sessionMeta(request));
      // RFC 6749 §5.1: a token answer must not be stored by any cache.
      void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      if (!('accessToken' in result)) return result;
      return { access_token: result.accessToken, token_type: 'bearer' as const };
    },
  );

  app.post(
    '/login/test-token',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'login_test_token',
        tags,
        summary: 'Check a token; answers its user',
        response: { 200: UserPublicSchema, 401: HttpErrorSchema },
      },
    },
    async (request) => toUserPublic(currentAuth(request).user),
  );

  app.post(
    '/logout',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'login_logout',
        tags,
        summary: 'Revoke the session of this token',
        response: { 204: z.null(), 401: HttpErrorSchema },
      },
    },
    async (request, reply) => {
      await auth.logout(currentAuth(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/password-recovery/:email',
    {
      config: { access: 'public' },
      preHandler: [
        app.limit('recovery-ip', limits.recoveryPerIp, byIp, authMessages.recoveryUnavailable),
        app.limit(
          'recovery-account',
          limits.recoveryPerAccount,
          byField('params', 'email'),
          authMessages.recoveryUnavailable,
        ),
      ],
      schema: {
        operationId: 'login_recover_password',
        tags,
        summary: 'Mail a password reset link (same answer for unknown addresses)',
        params: z.object({ email: EmailSchema }),
        response: { 200: MessageSchema, ...errors },
      },
    },
    async (request) => {
      await auth.requestPasswordRecovery(request.params.email);
      return { message: authMessages.recoverySent };
    },
  );

  app.post(
    '/reset-password/',
    {
      config: { access: 'public' },
      preHandler: [app.limit('reset-ip', limits.resetPerIp, byIp, authMessages.recoveryUnavailable)],
      schema: {
        operationId: 'login_reset_password',
        tags,
        summary: 'Set a new password with a mailed reset token',
        body: NewPasswordSchema,
        response: { 200: MessageSchema, ...errors },
      },
    },
    async (request) => {
      await auth.resetPassword(request.body);
      return { message: authMessages.passwordUpdated };
    },
  );

  app.post(
    '/password-recovery-html-content/:email',
    {
      config: { access: { permission: PERMISSIONS.usersWrite } },
      schema: {
        operationId: 'login_recovery_html_content',
        tags,
        summary: 'Preview the recovery e-mail of a user (its link is not valid)',
        params: z.object({ email: z.string().max(320) }),
        produces: ['text/html'],
        response: { 200: z.string(), 401: HttpErrorSchema, 403: HttpErrorSchema, 404: HttpErrorSchema },
      },
    },
    async (request, reply) => {
      const preview = await auth.previewRecoveryMail(request.params.email);
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('subject', preview.subject)
        .send(preview.html);
    },
  );
};
