import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import proxyAddr from '@fastify/proxy-addr';
import fp from 'fastify-plugin';
import { routeOf } from '../lib/request-route.js';

/** Carries the request id: read from a trusted proxy, echoed on every answer. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What we accept as someone else's request id: short, and nothing a log reader could trip on. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:+=/@-]{1,128}$/;

/**
 * Fastify's `genReqId`. Behind a trusted proxy (TRUST_PROXY) the id the proxy sent in `X-Request-Id`
 * is kept, so its access log and ours share one id; anything else gets a new UUID. Without a trusted
 * proxy the header is ignored: any client could otherwise choose the id its requests are logged under.
 */
export function requestIdGenerator(trustProxy: boolean | string[]): (raw: IncomingMessage) => string {
  // With a list, only a listed proxy's header counts: a client reaching the server directly is not one.
  const trusted = Array.isArray(trustProxy) ? proxyAddr.compile(trustProxy) : () => trustProxy;
  return (raw) => {
    const peer = raw.socket.remoteAddress ?? '';
    const incoming = trusted(peer, 0) ? raw.headers[REQUEST_ID_HEADER] : undefined;
    return typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  };
}

/**
 * The one log line of a request, written once its answer is sent. It is written with the app's
 * logger rather than the request's, whose bindings (reqId, and userId / tenantId once known) would
 * repeat these fields. The raw URL is left out: paths can carry e-mail addresses
 * (`/password-recovery/{email}`) and query strings anything; the route template says which
 * operation it was.
 */
export function logCompletedRequest(request: FastifyRequest, reply: FastifyReply): void {
  request.server.log.info(
    {
      reqId: request.id,
      method: request.method,
      route: routeOf(request),
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      userId: request.auth?.user.id ?? null,
      tenantId: request.tenant?.id ?? null,
      ip: request.ip,
    },
    'request completed',
  );
}

/**
 * Echoes the request id on every answer (errors and 404s included) and logs each request once, when
 * its answer has been sent; Fastify's own two lines per request are turned off in app.ts. Router
 * errors (a malformed URL) run no hook: app.ts's `frameworkErrors` does the same for them.
 */
export const requestLogPlugin = fp(
  async (app: FastifyInstance) => {
    // Callback hooks: an async hook costs every request a promise and a turn of the microtask queue.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      logCompletedRequest(request, reply);
      done();
    });
  },
  { name: 'request-log' },
);
