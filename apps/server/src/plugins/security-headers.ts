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

const INLINE_SCRIPT_HASH = /^sha256-[A-Za-z0-9+/]{43}=$/;

/**
 * Over plain HTTP (a local run, or an intranet without TLS) the browser must not be told to upgrade
 * every request to HTTPS nor to remember HTTPS for the host: the product would stop loading.
 * `inlineScriptHashes` ('sha256-...') allow those exact inline scripts and no other (the web build's
 * pre-paint colour-scheme script); inline script stays forbidden otherwise.
 */
export function helmetOptionsFor(servedOverHttps: boolean, inlineScriptHashes: readonly string[] = []): HelmetOptions {
  for (const hash of inlineScriptHashes) {
    if (!INLINE_SCRIPT_HASH.test(hash)) throw new Error(`Not a CSP sha256 script hash: ${hash}`);
  }
  const directives = {
    ...CSP_DIRECTIVES,
    'script-src': [...CSP_DIRECTIVES['script-src'], ...inlineScriptHashes.map((hash) => `'${hash}'`)],
  };
  if (servedOverHttps) {
    return {
      contentSecurityPolicy: { useDefaults: true, directives },
      crossOriginEmbedderPolicy: false,
    };
  }
  return {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: { ...directives, 'upgrade-insecure-requests': null },
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

export const securityHeadersPlugin = fp<{ servedOverHttps: boolean; inlineScriptHashes?: readonly string[] }>(
  async (app: FastifyInstance, options) => {
    const headers = computeSecurityHeaders(helmetOptionsFor(options.servedOverHttps, options.inlineScriptHashes));
    app.addHook('onRequest', async (_request, reply) => {
      reply.headers(headers);
    });
  },
  { name: 'security-headers' },
);
