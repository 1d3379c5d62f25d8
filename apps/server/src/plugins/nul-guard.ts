import { Stream } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest, fieldError } from '../lib/errors.js';

const NUL = '\u0000';

interface Visit {
  value: unknown;
  /** Index of the container this value sits in (-1 for the root), and its key or index there. */
  parent: number;
  key: string | number;
}

/** The path to `pending[at]`, rebuilt from parent links only once a NUL is found. */
function pathTo(pending: Visit[], at: number): (string | number)[] {
  const path: (string | number)[] = [];
  for (let index = at; index > 0; index = pending[index]!.parent) path.push(pending[index]!.key);
  return path.reverse();
}

/**
 * Where a string (or object key) holding U+0000 sits in `value`, shallowest first. Breadth-first
 * over a queue rather than recursion, so a deeply nested body cannot overflow the stack; each entry
 * links to its parent instead of carrying a copy of its path, so the walk is linear in the body's
 * size however deep it is nested.
 */
function findNul(value: unknown): (string | number)[] | undefined {
  // Bytes kept as received (the payment provider's webhook) are not text, and walking a Buffer
  // would visit every byte as a key of its own: a megabyte body, a million visits.
  if (ArrayBuffer.isView(value)) return undefined;
  // A file upload's body is the request stream itself (Studio extracts): not text, and its object
  // graph (socket, server, back to the stream) has cycles a walk would follow for ever.
  if (value instanceof Stream) return undefined;
  const pending: Visit[] = [{ value, parent: -1, key: '' }];
  for (let next = 0; next < pending.length; next += 1) {
    const current = pending[next]!.value;
    if (typeof current === 'string') {
      if (current.includes(NUL)) return pathTo(pending, next);
    } else if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index += 1) {
        pending.push({ value: current[index], parent: next, key: index });
      }
    } else if (current !== null && typeof current === 'object') {
      for (const key of Object.keys(current)) {
        if (key.includes(NUL)) return [...pathTo(pending, next), key];
        pending.push({ value: (current as Record<string, unknown>)[key], parent: next, key });
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
    app.addHook('preValidation', (request, _reply, done) => {
      const parts = [
        ['path', request.params],
        ['query', request.query],
        ['body', request.body],
      ] as const;
      for (const [part, value] of parts) {
        const at = findNul(value);
        if (!at) continue;
        if (part === 'path') return done(badRequest('Invalid path: it must not contain NUL characters'));
        return done(fieldError([part, ...at], 'Text must not contain NUL characters', 'string_nul'));
      }
      done();
    });
  },
  { name: 'nul-guard', dependencies: ['error-handler'] },
);
