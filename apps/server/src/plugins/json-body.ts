import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../lib/errors.js';

/** Deepest nesting of objects and arrays a JSON body may have; no route's schema comes close. */
export const MAX_JSON_DEPTH = 64;

export const tooDeeplyNested = () =>
  badRequest(`Request body is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`);

/**
 * The deepest nesting of `{` and `[` in `text` outside strings, stopping as soon as it passes
 * `limit`. One pass, no allocation: time linear in the body, whatever its shape.
 */
export function exceedsJsonDepth(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c /* \ */) index += 1;
      else if (code === 0x22 /* " */) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * JSON bodies are checked for depth before they are parsed: JSON.parse and every walker after it
 * (validation, the NUL guard, logging) recurse or allocate per level, and a 200 KB body nested
 * 100 000 levels deep used to exhaust the heap. The parse itself is Fastify's own (prototype
 * poisoning refused), so everything else about JSON bodies stays as it was.
 */
export const jsonBodyPlugin = fp(
  async (app: FastifyInstance) => {
    const parse = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (exceedsJsonDepth(text)) {
        done(tooDeeplyNested(), undefined);
        return;
      }
      void parse(request, text, done);
    });
  },
  { name: 'json-body', dependencies: ['error-handler'] },
);
