import {
  authMessages,
  HttpErrorSchema,
  MessageSchema,
  PaginationQuerySchema,
  SsoConnectionCreateSchema,
  SsoConnectionIdParamsSchema,
  SsoConnectionPublicSchema,
  SsoConnectionsPublicSchema,
  SsoConnectionUpdateSchema,
  SsoExchangeResponseSchema,
  SsoExchangeSchema,
  SsoLinkSchema,
  ssoMessages,
  SsoStartResponseSchema,
  SsoStartSchema,
  TokenSchema,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { currentActor } from '../../plugins/auth.js';
import { byIp } from '../../plugins/rate-limit.js';
import { SSO_CALLBACK_PATH, type SsoService } from './sso.service.js';
import { denied, missing } from '../../lib/route-responses.js';

/** The cookie binding a provider's callback to the browser that started the sign-in. */
const FLOW_COOKIE = 'dp_sso_flow';
const FLOW_COOKIE_SECONDS = 10 * 60;

const limited = { 400: HttpErrorSchema, 422: ValidationErrorSchema, 429: HttpErrorSchema, 503: HttpErrorSchema };

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

function setFlowCookie(reply: FastifyReply, config: Config, value: string, maxAge: number) {
  // Sent only to the callback; Lax so the provider's top-level redirect back carries it.
  const secure = config.frontendHost.startsWith('https:') ? '; Secure' : '';
  void reply.header(
    'set-cookie',
    `${FLOW_COOKIE}=${value}; Path=${SSO_CALLBACK_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`,
  );
}

function sessionMeta(request: FastifyRequest) {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

export const ssoRoutes: FastifyPluginAsyncZod<{ sso: SsoService; config: Config }> = async (app, options) => {
  const { sso, config } = options;
  const admin = { access: 'superuser' } as const;
  const tags = ['sso'];
  const perIp = app.limit('sso-ip', config.rateLimits.loginPerIp, byIp, authMessages.signInUnavailable);

  app.get(
    '/sso/connections',
    {
      config: admin,
      schema: {
        operationId: 'sso_connections_list',
        tags,
        summary: 'List single sign-on connections (superusers only)',
        querystring: PaginationQuerySchema,
        response: { 200: SsoConnectionsPublicSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request) => sso.list(request.query),
  );

  app.post(
    '/sso/connections',
    {
      config: admin,
      schema: {
        operationId: 'sso_connections_create',
        tags,
        summary: 'Create a single sign-on connection (its client secret is sealed and never answered)',
        body: SsoConnectionCreateSchema,
        response: { 201: SsoConnectionPublicSchema, 409: HttpErrorSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request, reply) => reply.code(201).send(await sso.create(currentActor(request), request.body)),
  );

  app.put(
    '/sso/connections/:connection_id',
    {
      config: admin,
      schema: {
        operationId: 'sso_connections_update',
        tags,
        summary: 'Update a single sign-on connection (an omitted client secret stays as it is)',
        params: SsoConnectionIdParamsSchema,
        body: SsoConnectionUpdateSchema,
        response: {
          200: SsoConnectionPublicSchema,
          404: HttpErrorSchema,
          409: HttpErrorSchema,
          422: ValidationErrorSchema,
          ...denied,
        },
      },
    },
    async (request) => sso.update(currentActor(request), request.params.connection_id, request.body),
  );

  app.delete(
    '/sso/connections/:connection_id',
    {
      config: admin,
      schema: {
        operationId: 'sso_connections_delete',
        tags,
        summary: 'Delete a single sign-on connection',
        params: SsoConnectionIdParamsSchema,
        response: { 200: MessageSchema, ...missing, ...denied },
      },
    },
    async (request) => {
      await sso.remove(currentActor(request), request.params.connection_id);
      return { message: ssoMessages.deleted };
    },
  );

  app.post(
    '/sso/start',
    {
      config: { access: 'public' },
      preHandler: [perIp],
      schema: {
        operationId: 'sso_start',
        tags,
        summary: 'Start single sign-on for an e-mail address (its domain picks the connection)',
        body: SsoStartSchema,
        response: { 200: SsoStartResponseSchema, 502: HttpErrorSchema, ...limited },
      },
    },
    async (request, reply) => {
      const started = await sso.start(request.body.email);
      setFlowCookie(reply, config, started.browserSecret, FLOW_COOKIE_SECONDS);
      return { authorization_url: started.authorizationUrl };
    },
  );

  app.get(
    '/sso/callback',
    {
      config: { access: 'public' },
      preHandler: [perIp],
      schema: {
        operationId: 'sso_callback',
        tags,
        summary: "The identity provider's redirect back: signs in and hands the web app a one-time code",
        // Whatever the provider appends is read from the raw query string by openid-client.
        querystring: z.object({}).catchall(z.string().max(8192)),
        response: { 302: z.null(), 429: HttpErrorSchema, 503: HttpErrorSchema },
      },
    },
    async (request, reply) => {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
      const outcome = await sso.callback(query, cookieOf(request, FLOW_COOKIE), request.ip);
      setFlowCookie(reply, config, '', 0);
      return reply.header('cache-control', 'no-store').redirect(outcome.location, 302);
    },
  );

  app.post(
    '/sso/exchange',
    {
      config: { access: 'public' },
      preHandler: [perIp],
      schema: {
        operationId: 'sso_exchange',
        tags,
        summary: 'Trade the one-time code of a single sign-on for a session (or learn a password is needed)',
        body: SsoExchangeSchema,
        response: { 200: SsoExchangeResponseSchema, ...limited },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return sso.exchange(request.body.code, sessionMeta(request));
    },
  );

  app.post(
    '/sso/link',
    {
      config: { access: 'public' },
      preHandler: [perIp],
      schema: {
        operationId: 'sso_link',
        tags,
        summary: "Link single sign-on to an existing account with the account's password",
        body: SsoLinkSchema,
        response: { 200: TokenSchema, ...limited },
      },
    },
    async (request, reply) => {
      const accessToken = await sso.link(request.body, sessionMeta(request));
      void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return { access_token: accessToken, token_type: 'bearer' as const };
    },
  );
};
