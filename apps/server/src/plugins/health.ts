import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DatabaseHandle } from '../db/client.js';

/** `/healthz`: the process answers. `/readyz`: and its database does too. */
export const healthPlugin = fp<{ database: DatabaseHandle }>(
  async (app: FastifyInstance, options) => {
    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
    app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
      try {
        await options.database.ping();
        return { status: 'ok', database: 'ok' };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply.code(503).send({ detail: 'Database unavailable' });
      }
    });
  },
  { name: 'health' },
);
