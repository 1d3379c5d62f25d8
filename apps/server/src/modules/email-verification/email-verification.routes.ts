import {
  EmailVerificationStatusSchema,
  EmailVerifiedSchema,
  emailVerificationMessages,
  HttpErrorSchema,
  MessageSchema,
  ValidationErrorSchema,
  VerifyEmailSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { currentAuth } from '../../plugins/auth.js';
import { byIp } from '../../plugins/rate-limit.js';
import type { EmailVerificationService } from './email-verification.service.js';

const tags = ['users'];

export const emailVerificationRoutes: FastifyPluginAsyncZod<{
  verification: EmailVerificationService;
  config: Config;
}> = async (app, options) => {
  const { verification, config } = options;
  const limits = config.rateLimits;

  app.post(
    '/verify-email/',
    {
      // The link is the credential: whoever reads the mail may follow it, signed in or not.
      config: { access: 'public' },
      preHandler: [
        app.limit('verify-email-ip', limits.verifyEmailPerIp, byIp, emailVerificationMessages.resendUnavailable),
      ],
      schema: {
        operationId: 'users_verify_email',
        tags,
        summary: 'Follow a mailed verification link: verifies the address, or moves the account to a new one',
        body: VerifyEmailSchema,
        response: {
          200: EmailVerifiedSchema,
          400: HttpErrorSchema,
          409: HttpErrorSchema,
          422: ValidationErrorSchema,
          429: HttpErrorSchema,
          503: HttpErrorSchema,
        },
      },
    },
    async (request) => verification.verify(request.body.token, request.ip),
  );

  app.get(
    '/users/me/email-verification',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'users_read_email_verification',
        tags,
        summary: 'Whether the address is verified, and a new address waiting for its link',
        response: { 200: EmailVerificationStatusSchema, 401: HttpErrorSchema, 403: HttpErrorSchema },
      },
    },
    async (request) => verification.status(currentAuth(request)),
  );

  app.post(
    '/users/me/email-verification',
    {
      config: { access: 'user' },
      preHandler: [
        app.limit(
          'verification-mail-account',
          limits.verificationMailPerAccount,
          (request) => request.auth?.user.id,
          emailVerificationMessages.resendUnavailable,
        ),
      ],
      schema: {
        operationId: 'users_resend_email_verification',
        tags,
        summary: 'Mail a new verification link (to the pending new address if a change waits)',
        response: {
          200: MessageSchema,
          400: HttpErrorSchema,
          401: HttpErrorSchema,
          403: HttpErrorSchema,
          429: HttpErrorSchema,
          503: HttpErrorSchema,
        },
      },
    },
    async (request) => {
      await verification.resend(currentAuth(request));
      return { message: emailVerificationMessages.sent };
    },
  );
};
