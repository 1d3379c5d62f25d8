import {
  authMessages,
  HttpErrorSchema,
  LearnSlugParamsSchema,
  LessonCheckResultSchema,
  LessonSchema,
  LessonsSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RateLimitRule } from '../../config.js';
import { denied, missing } from '../../lib/route-responses.js';
import { currentAuth } from '../../plugins/auth.js';
import type { LearnService } from './learn.service.js';

const SampleParamsSchema = z.object({ file: z.string().min(1).max(100) });

/**
 * Learn (issue 60): the lessons, one lesson with its steps, a check of its steps on the tenant chosen
 * with X-Tenant-ID (the tenant-context plugin has checked the caller belongs to it: else 403), the
 * reset of the caller's progress, and the sample files the lessons upload.
 */
export const learnRoutes: FastifyPluginAsyncZod<{
  learn: LearnService;
  /** Checks per account (rateLimits.learnChecksPerAccount): each reads the tenant's Studio tables. */
  checkLimit: RateLimitRule;
}> = async (app, options) => {
  const { learn } = options;
  const tags = ['learn'];
  const signedIn = { access: 'user' } as const;
  const perAccount = app.limit(
    'learn-check-account',
    options.checkLimit,
    (request) => request.auth?.user.id,
    authMessages.tooManyRequests,
  );

  app.get(
    '/learn/lessons',
    {
      config: signedIn,
      schema: {
        operationId: 'learn_list_lessons',
        tags,
        summary:
          "The lessons there are, in order, each with the caller's progress in the tenant chosen with X-Tenant-ID (none chosen: no progress)",
        response: { 200: LessonsSchema, ...denied },
      },
    },
    async (request) => learn.list(currentAuth(request).user.id, request.tenant),
  );

  app.get(
    '/learn/lessons/:slug',
    {
      config: signedIn,
      schema: {
        operationId: 'learn_read_lesson',
        tags,
        summary: 'One lesson: its introduction and steps as Markdown and HTML, each step with its check and progress',
        params: LearnSlugParamsSchema,
        response: { 200: LessonSchema, ...missing, ...denied },
      },
    },
    async (request) => learn.get(currentAuth(request).user.id, request.tenant, request.params.slug),
  );

  app.post(
    '/learn/lessons/:slug/check',
    {
      config: signedIn,
      preHandler: [perAccount],
      schema: {
        operationId: 'learn_check_lesson',
        tags,
        summary:
          "Check each step of a lesson on the chosen tenant's data now: done, or what is missing; kept as the caller's progress",
        params: LearnSlugParamsSchema,
        response: { 200: LessonCheckResultSchema, 400: HttpErrorSchema, 429: HttpErrorSchema, ...missing, ...denied },
      },
    },
    async (request) => learn.check(currentAuth(request).user.id, request.tenant, request.params.slug),
  );

  app.delete(
    '/learn/progress/:slug',
    {
      config: signedIn,
      schema: {
        operationId: 'learn_reset_progress',
        tags,
        summary: "Forget the caller's progress in a lesson in the chosen tenant (the tenant's work is not touched)",
        params: LearnSlugParamsSchema,
        response: { 204: z.null(), 400: HttpErrorSchema, ...missing, ...denied },
      },
    },
    async (request, reply) => {
      await learn.reset(currentAuth(request).user.id, request.tenant, request.params.slug);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/learn/samples/:file',
    {
      // Public-domain data the lessons link to: a plain link downloads it, with no token to send.
      config: { access: 'public' },
      schema: {
        operationId: 'learn_download_sample',
        tags,
        summary: 'A sample file the lessons ship (public-domain data, its source beside it) to upload as an extract',
        params: SampleParamsSchema,
        response: {
          200: z.string().meta({ description: 'The file (CSV)' }),
          ...missing,
        },
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      const sample = await learn.sample(file);
      return reply
        .header('content-type', sample.contentType)
        .header('content-disposition', `attachment; filename="${file}"`)
        .send(sample.body);
    },
  );
};
