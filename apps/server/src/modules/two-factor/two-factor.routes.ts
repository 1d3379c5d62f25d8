import {
  authMessages,
  HttpErrorSchema,
  MessageSchema,
  RecoveryCodesSchema,
  TokenSchema,
  TwoFactorConfirmSchema,
  TwoFactorDisableSchema,
  TwoFactorLoginSchema,
  TwoFactorSetupSchema,
  TwoFactorStatusSchema,
  twoFactorMessages,
  UserIdParamsSchema,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { currentActor, currentAuth } from '../../plugins/auth.js';
import { byIp } from '../../plugins/rate-limit.js';
import type { TwoFactorService } from './two-factor.service.js';

/** Two-factor sign-in (decision 026): the code step of logging in, and the owner's own settings. */
export const twoFactorRoutes: FastifyPluginAsyncZod<{ twoFactor: TwoFactorService; config: Config }> = async (
  app,
  options,
) => {
  const { twoFactor, config } = options;
  const guessed = {
    400: HttpErrorSchema,
    401: HttpErrorSchema,
    409: HttpErrorSchema,
    422: ValidationErrorSchema,
    429: HttpErrorSchema,
    503: HttpErrorSchema,
  };

  app.post(
    '/login/two-factor',
    {
      config: { access: 'public' },
      // Per account, failed codes are counted by the service (like failed passwords).
      preHandler: [app.limit('login-ip', config.rateLimits.loginPerIp, byIp, authMessages.signInUnavailable)],
      schema: {
        operationId: 'login_two_factor',
        tags: ['login'],
        summary: "Log in's second step: the challenge token and a TOTP or recovery code",
        body: TwoFactorLoginSchema,
        response: { 200: TokenSchema, ...guessed },
      },
    },
    async (request, reply) => {
      const accessToken = await twoFactor.completeLogin(request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return { access_token: accessToken, token_type: 'bearer' as const };
    },
  );

  const tags = ['users'];

  app.get(
    '/users/me/two-factor',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'users_two_factor_status',
        tags,
        summary: 'Whether two-factor sign-in is on, and recovery codes left',
        response: { 200: TwoFactorStatusSchema, 401: HttpErrorSchema },
      },
    },
    async (request) => twoFactor.status(currentAuth(request)),
  );

  app.post(
    '/users/me/two-factor/setup',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'users_two_factor_setup',
        tags,
        summary: 'Start the set-up: a new secret for the authenticator app (not on until confirmed)',
        response: { 200: TwoFactorSetupSchema, 401: HttpErrorSchema, 409: HttpErrorSchema },
      },
    },
    async (request) => twoFactor.beginSetup(currentAuth(request)),
  );

  app.post(
    '/users/me/two-factor/confirm',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'users_two_factor_confirm',
        tags,
        summary: 'Turn it on with a code from the app; answers the recovery codes, once',
        body: TwoFactorConfirmSchema,
        response: { 200: RecoveryCodesSchema, ...guessed },
      },
    },
    async (request) => ({ recovery_codes: await twoFactor.confirmSetup(currentActor(request), request.body.code) }),
  );

  app.post(
    '/users/me/two-factor/disable',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'users_two_factor_disable',
        tags,
        summary: 'Turn it off with the password and a current code',
        body: TwoFactorDisableSchema,
        response: { 200: MessageSchema, ...guessed },
      },
    },
    async (request) => {
      await twoFactor.disable(currentActor(request), request.body);
      return { message: 'Two-factor authentication is off' };
    },
  );

  app.post(
    '/users/:user_id/two-factor/reset',
    {
      config: { access: 'superuser' },
      schema: {
        operationId: 'users_two_factor_reset',
        tags,
        summary:
          'Turn off two-factor sign-in for a user who lost the authenticator and recovery codes, and sign them out everywhere (superusers only)',
        params: UserIdParamsSchema,
        response: {
          200: MessageSchema,
          400: HttpErrorSchema,
          401: HttpErrorSchema,
          403: HttpErrorSchema,
          404: HttpErrorSchema,
          422: ValidationErrorSchema,
        },
      },
    },
    async (request) => {
      await twoFactor.resetAsAdmin(currentActor(request), request.params.user_id);
      return { message: twoFactorMessages.resetDone };
    },
  );
};
