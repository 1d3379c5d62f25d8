import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest, fieldError } from '../lib/errors.js';

const NUL = '\u0000';

/**
 * Where a string (or object key) holding U+0000 sits in `value`, shallowest first. Breadth-first
 * over a queue rather than recursion: a deeply nested body cannot overflow the stack.
 */
function findNul(value: unknown): (string | number)[] | undefined {
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  for (let next = 0; next < pending.length; next += 1) {
    const { value: current, path } = pending[next]!;
    if (typeof current === 'string') {
      if (current.includes(NUL)) return path;
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push({ value: item, path: [...path, index] }));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        if (key.includes(NUL)) return [...path, key];
        pending.push({ value: item, path: [...path, key] });
      }
    }
  }
  return undefined;
}

/**
 * PostgreSQL text cannot hold U+0000: a string carrying one would fail deep in a query. Refuse it
 * up front: in the body or query, a 422 naming the field; in the path, a 400 like any other malformed
 * URL (so a path such as `/files/download/report%00.csv` is refused as the traversal attempt it is).
 */
export const nulGuardPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      const parts = [
        ['path', request.params],
        ['query', request.query],
        ['body', request.body],
      ] as const;
      for (const [part, value] of parts) {
        const at = findNul(value);
        if (!at) continue;
        if (part === 'path') throw badRequest('Invalid path: it must not contain NUL characters');
        throw fieldError([part, ...at], 'Text must not contain NUL characters', 'string_nul');
      }
    });
  },
  { name: 'nul-guard' },
);
