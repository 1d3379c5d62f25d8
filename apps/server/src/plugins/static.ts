import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { ErrorCode, isWebAppPath } from '@dataplatform/contract';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

/** The file in which the web build lists the CSP hashes of the inline scripts its pages carry. */
export const INLINE_SCRIPT_HASHES_FILE = 'csp-script-hashes.json';

/** The web build's inline-script hashes ('sha256-...'), or none when there is no build. */
export function readInlineScriptHashes(root: string): string[] {
  const file = path.join(path.resolve(root), INLINE_SCRIPT_HASHES_FILE);
  if (!existsSync(file)) return [];
  const hashes: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(hashes) || !hashes.every((hash) => typeof hash === 'string')) {
    throw new Error(`${file} must hold a JSON array of strings`);
  }
  return hashes;
}

/**
 * Serves the built web app (apps/web/dist) so one process serves the whole product. A path with a
 * prerendered page (dist/<path>/index.html) gets that page, compressed when the browser accepts it.
 * Other non-API GETs that want HTML get the app's index.html: with 200 on the app's own routes, and
 * with 404 elsewhere, where the app shows its "not found" screen. Unknown files and API paths get a
 * JSON 404.
 */
export const staticPlugin = fp<{
  root: string;
  /** Headers of the app's own pages that depend on the path (a shared or embedded report's). */
  pageHeaders?: (pathname: string, reply: FastifyReply) => Promise<void>;
}>(
  async (app: FastifyInstance, options) => {
    // `dist` is a link to the build it was when the server started (scripts/build.mjs): resolved
    // now, so a later build never changes the files under a running server.
    const hasWebApp = existsSync(path.join(options.root, 'index.html'));
    const root = hasWebApp ? realpathSync(options.root) : path.resolve(options.root);
    if (hasWebApp) {
      await app.register(fastifyStatic, {
        root,
        wildcard: true,
        // Prerendered pages are directory indexes (dist/about-us/index.html serves /about-us), so the
        // precompressed lookup below finds their .br and .gz siblings too.
        index: ['index.html'],
        // The web build writes .br and .gz copies beside its files; browsers that accept them get those.
        preCompressed: true,
        // Vite fingerprints everything under assets/: cache it for good, revalidate the rest.
        setHeaders(reply, filePath) {
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
          reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    }
    if (hasWebApp) {
      // Browsers ask for /favicon.ico on their own wherever a page names no icon (a JSON answer, robots.txt,
      // a download): the product's icon is an SVG, which every browser that shows favicons follows a
      // redirect to, so the tab gets the logo and the log no 404.
      app.get('/favicon.ico', { config: { access: 'public' }, schema: { hide: true } }, (_request, reply) =>
        reply.header('cache-control', 'public, max-age=86400').redirect('/favicon.svg', 301),
      );
    }
    app.setNotFoundHandler(async (request, reply) => {
      const wantsPage =
        hasWebApp &&
        (request.method === 'GET' || request.method === 'HEAD') &&
        !request.url.startsWith('/api/') &&
        (request.headers.accept ?? '').includes('text/html');
      if (wantsPage) {
        const pathname = request.url.split('?', 1)[0]!;
        const known = isWebAppPath(pathname);
        if (known) await options.pageHeaders?.(pathname, reply);
        return reply
          .code(known ? 200 : 404)
          .header('cache-control', 'no-cache')
          .sendFile('index.html');
      }
      return reply.code(404).send({ detail: 'Not Found', code: ErrorCode.not_found });
    });
  },
  { name: 'static' },
);
