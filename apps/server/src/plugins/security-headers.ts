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
 * What Stripe.js needs (Stripe's CSP guide): its script, the card field's frames and 3-D Secure, and
 * its API. Allowed only when Stripe is the billing provider (docs/decisions/016-stripe-csp.md).
 */
const STRIPE_ORIGINS = {
  'script-src': ['https://js.stripe.com', 'https://*.js.stripe.com'],
  'frame-src': ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  'connect-src': ['https://api.stripe.com'],
} as const;

/**
 * Over plain HTTP (a local run, or an intranet without TLS) the browser must not be told to upgrade
 * every request to HTTPS nor to remember HTTPS for the host: the product would stop loading.
 * `inlineScriptHashes` ('sha256-...') allow those exact inline scripts and no other (the web build's
 * pre-paint colour-scheme script); inline script stays forbidden otherwise.
 */
export function helmetOptionsFor(
  servedOverHttps: boolean,
  inlineScriptHashes: readonly string[] = [],
  { allowStripe = false }: { allowStripe?: boolean } = {},
): HelmetOptions {
  for (const hash of inlineScriptHashes) {
    if (!INLINE_SCRIPT_HASH.test(hash)) throw new Error(`Not a CSP sha256 script hash: ${hash}`);
  }
  const stripe = (directive: keyof typeof STRIPE_ORIGINS) => (allowStripe ? STRIPE_ORIGINS[directive] : []);
  const directives = {
    ...CSP_DIRECTIVES,
    'script-src': [
      ...CSP_DIRECTIVES['script-src'],
      ...inlineScriptHashes.map((hash) => `'${hash}'`),
      ...stripe('script-src'),
    ],
    'connect-src': [...CSP_DIRECTIVES['connect-src'], ...stripe('connect-src')],
    ...(allowStripe ? { 'frame-src': [...STRIPE_ORIGINS['frame-src']] } : {}),
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

export const securityHeadersPlugin = fp<{
  servedOverHttps: boolean;
  inlineScriptHashes?: readonly string[];
  /** Stripe is the billing provider: its card field's origins are allowed. */
  allowStripe?: boolean;
}>(
  async (app: FastifyInstance, options) => {
    const headers = computeSecurityHeaders(
      helmetOptionsFor(options.servedOverHttps, options.inlineScriptHashes, { allowStripe: options.allowStripe }),
    );
    app.addHook('onRequest', async (_request, reply) => {
      reply.headers(headers);
    });
  },
  { name: 'security-headers' },
);
