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

/**
 * What an API answer needs of those headers (OWASP's REST security cheat sheet): JSON is never a
 * document, so its CSP allows nothing and forbids framing, and the page-only headers (opener and
 * origin-agent isolation, DNS prefetch, download options, the legacy XSS filter) say nothing to it.
 * Half as many headers, written on every API call. HSTS rides along whenever pages send it.
 */
export function apiSecurityHeaders(pageHeaders: Readonly<Record<string, string>>): Record<string, string> {
  const hsts = pageHeaders['strict-transport-security'];
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    ...(hsts ? { 'strict-transport-security': hsts } : {}),
  };
}

/** The API's JSON routes (and its 404s); its docs page is a document and gets the page set. */
export function isApiCall(url: string): boolean {
  return url.startsWith('/api/v1/') && !url.startsWith('/api/v1/docs');
}

export const securityHeadersPlugin = fp<{
  servedOverHttps: boolean;
  inlineScriptHashes?: readonly string[];
  /** Stripe is the billing provider: its card field's origins are allowed. */
  allowStripe?: boolean;
}>(
  async (app: FastifyInstance, options) => {
    const pageHeaders = computeSecurityHeaders(
      helmetOptionsFor(options.servedOverHttps, options.inlineScriptHashes, { allowStripe: options.allowStripe }),
    );
    const apiHeaders = apiSecurityHeaders(pageHeaders);
    // A callback hook, not an async one: no promise per request for a synchronous step.
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(isApiCall(request.url) ? apiHeaders : pageHeaders);
      done();
    });
  },
  { name: 'security-headers' },
);
