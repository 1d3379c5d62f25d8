import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DatabaseHandle } from '../db/client.js';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE } from '../lib/errors.js';
import type { OutboxBacklog } from '../modules/mail/outbox.repository.js';

export interface HealthOptions {
  database: DatabaseHandle;
  /** Mail waiting and given up, shown by `/readyz?details=1`. */
  outboxBacklog: () => Promise<OutboxBacklog>;
}

/**
 * `/healthz`: the process answers. `/readyz`: and its database does too (503 with Retry-After while
 * it does not). `/readyz?details=1` adds the mail backlog, so an SMTP outage shows before users notice.
 */
export const healthPlugin = fp<HealthOptions>(
  async (app: FastifyInstance, options) => {
    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
    app.get<{ Querystring: { details?: string } }>('/readyz', { schema: { hide: true } }, async (request, reply) => {
      try {
        await options.database.ping();
        if (request.query.details === undefined) return { status: 'ok', database: 'ok' };
        const backlog = await options.outboxBacklog();
        return {
          status: 'ok',
          database: 'ok',
          outbox: {
            pending: backlog.pending,
            failed: backlog.failed,
            oldest_pending_seconds: backlog.oldestPendingSeconds,
          },
        };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply
          .code(503)
          .header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
          .send({ detail: DATABASE_UNAVAILABLE });
      }
    });
  },
  { name: 'health' },
);
