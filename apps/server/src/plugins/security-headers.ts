import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's headers with a CSP that fits the single-page app and the API docs page: everything from
 * our own origin, no plugins, no <base> rewriting, no framing.
 */
const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  'base-uri': ["'none'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'img-src': ["'self'", 'data:'],
  'style-src': ["'self'", "'unsafe-inline'"],
  'script-src': ["'self'"],
  'connect-src': ["'self'"],
  'form-action': ["'self'"],
};

/**
 * Over plain HTTP (a local run, or an intranet without TLS) the browser must not be told to upgrade
 * every request to HTTPS nor to remember HTTPS for the host: the product would stop loading.
 */
export function helmetOptionsFor(servedOverHttps: boolean): HelmetOptions {
  if (servedOverHttps) {
    return {
      contentSecurityPolicy: { useDefaults: true, directives: CSP_DIRECTIVES },
      crossOriginEmbedderPolicy: false,
    };
  }
  return {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: { ...CSP_DIRECTIVES, 'upgrade-insecure-requests': null },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  };
}

/**
 * Runs helmet once against a recording response and returns the headers it sets. They never vary
 * per request (we use no CSP nonces), so computing them at start saves helmet's work on every call.
 */
export function computeSecurityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}

export const securityHeadersPlugin = fp<{ servedOverHttps: boolean }>(
  async (app: FastifyInstance, options) => {
    const headers = computeSecurityHeaders(helmetOptionsFor(options.servedOverHttps));
    app.addHook('onRequest', async (_request, reply) => {
      reply.headers(headers);
    });
  },
  { name: 'security-headers' },
);
