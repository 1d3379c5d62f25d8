import {
  ContactCreateSchema,
  ContactIdParamsSchema,
  ContactListQuerySchema,
  contactMessages,
  ContactStatusQuerySchema,
  ContactSubmissionSchema,
  ContactSubmissionsSchema,
  HttpErrorSchema,
  MessageSchema,
  PERMISSIONS,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { currentActor } from '../../plugins/auth.js';
import { byIp } from '../../plugins/rate-limit.js';
import type { ContactService } from './contact.service.js';
import { denied, missing } from '../../lib/route-responses.js';

export const contactRoutes: FastifyPluginAsyncZod<{ contact: ContactService; config: Config }> = async (
  app,
  options,
) => {
  const { contact, config } = options;
  const tags = ['contact'];

  app.post(
    '/contact/',
    {
      config: { access: 'public' },
      preHandler: [app.limit('contact-ip', config.rateLimits.contactPerIp, byIp, contactMessages.unavailable)],
      schema: {
        operationId: 'contact_submit',
        tags,
        summary: 'Send a message through the contact form (stored before the answer; the team is notified by mail)',
        body: ContactCreateSchema,
        response: { 201: MessageSchema, 422: ValidationErrorSchema, 429: HttpErrorSchema, 503: HttpErrorSchema },
      },
    },
    async (request, reply) => {
      await contact.submit(request.body, { ip: request.ip, userAgent: request.headers['user-agent'] });
      return reply.code(201).send({ message: contactMessages.success });
    },
  );

  app.get(
    '/contact/',
    {
      config: { access: { permission: PERMISSIONS.contactRead } },
      schema: {
        operationId: 'contact_list',
        tags,
        summary: 'Contact form messages, newest first, optionally of one status',
        querystring: ContactListQuerySchema,
        response: { 200: ContactSubmissionsSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request) => contact.list(request.query),
  );

  app.patch(
    '/contact/:contact_id/status',
    {
      config: { access: { permission: PERMISSIONS.contactWrite } },
      schema: {
        operationId: 'contact_update_status',
        tags,
        summary: 'Set the status of a contact form message',
        params: ContactIdParamsSchema,
        querystring: ContactStatusQuerySchema,
        response: { 200: ContactSubmissionSchema, ...missing, ...denied },
      },
    },
    async (request) => contact.setStatus(currentActor(request), request.params.contact_id, request.query.status),
  );
};
