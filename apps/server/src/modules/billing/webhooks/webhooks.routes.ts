import { HttpErrorSchema } from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WebhooksService } from './webhooks.service.js';
import { BODY_LIMITS } from '../../../lib/body-limits.js';

/**
 * `POST /subscriptions/webhook`. Public: the signature is its authentication. The body is kept as
 * the exact bytes received (this plugin's own parser), since the signature covers those bytes.
 */
export const webhooksRoutes: FastifyPluginAsyncZod<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/subscriptions/webhook',
    {
      config: { access: 'public' },
      bodyLimit: BODY_LIMITS.webhook,
      schema: {
        operationId: 'subscriptions_webhook',
        tags: ['subscriptions'],
        summary: 'Payment provider events (Stripe-Signature verified over the raw body)',
        response: { 200: z.object({ received: z.literal(true) }), 400: HttpErrorSchema },
      },
    },
    async (request) => {
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      await webhooks.receive(rawBody, Array.isArray(signature) ? signature[0] : signature);
      return { received: true as const };
    },
  );
};
