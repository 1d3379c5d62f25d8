import { ErrorCode } from '@dataplatform/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DatabaseHandle } from '../db/client.js';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE } from '../lib/errors.js';
import type { RedisConnection } from '../lib/redis.js';

/** Mail waiting and mail given up, as the outbox counts them. */
export interface MailBacklog {
  pending: number;
  failed: number;
  /** Age of the oldest pending mail, in seconds (0 when none). */
  oldestPendingSeconds: number;
}

export interface HealthOptions {
  database: DatabaseHandle;
  /** Checked too when REDIS_URL is set (decision 049). */
  redis?: RedisConnection | undefined;
  /** Mail waiting and given up, shown by `/readyz?details=1`. */
  outboxBacklog: () => Promise<MailBacklog>;
  /**
   * Where Studio's extract files live, shown by `/readyz?details=1`. A store that fails does not make
   * the instance unready: only extract queries need it (they answer 503 source_unavailable).
   */
  studioStorage?: (() => Promise<object>) | undefined;
}

/** What /readyz answers once a shutdown has begun. */
export const SHUTTING_DOWN = 'The server is shutting down';

/**
 * `/healthz`: the process answers (also while it shuts down). `/readyz`: and it takes traffic: 503
 * from the moment a shutdown begins (the drain), and while its database does not answer (503 with
 * Retry-After). Redis, when configured, is reported but does not make an instance unready: every
 * instance shares the same Redis, so taking them out would stop the reads that decision 049 keeps
 * serving; `status` says `degraded` instead. `/readyz?details=1` adds the mail backlog, so an SMTP
 * outage shows before users notice.
 */
export const healthPlugin = fp<HealthOptions>(
  async (app: FastifyInstance, options) => {
    app.get('/healthz', { schema: { hide: true, operationId: 'health_live' } }, async () => ({ status: 'ok' }));
    app.get<{ Querystring: { details?: string } }>(
      '/readyz',
      { schema: { hide: true, operationId: 'health_ready' } },
      async (request, reply) => {
        if (app.isDraining()) {
          return reply.code(503).send({ detail: SHUTTING_DOWN, code: ErrorCode.service_unavailable });
        }
        const { redis } = options;
        const unavailable = (detail: string, code: ErrorCode) =>
          reply.code(503).header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS)).send({ detail, code });
        try {
          await options.database.ping();
        } catch (error) {
          request.log.warn({ err: error }, 'readiness check failed');
          return unavailable(DATABASE_UNAVAILABLE, ErrorCode.service_unavailable);
        }
        let redisState: 'ok' | 'unavailable' | undefined;
        if (redis) {
          // A failure is logged by the connection, once per outage, rather than here on every probe.
          redisState = await redis.ping().then(
            () => 'ok' as const,
            () => 'unavailable' as const,
          );
        }
        const ready = {
          status: redisState === 'unavailable' ? 'degraded' : 'ok',
          database: 'ok',
          ...(redisState ? { redis: redisState } : {}),
        };
        if (request.query.details === undefined) return ready;
        let backlog: MailBacklog;
        try {
          backlog = await options.outboxBacklog();
        } catch (error) {
          request.log.warn({ err: error }, 'readiness check failed');
          return unavailable(DATABASE_UNAVAILABLE, ErrorCode.service_unavailable);
        }
        return {
          ...ready,
          outbox: {
            pending: backlog.pending,
            failed: backlog.failed,
            oldest_pending_seconds: backlog.oldestPendingSeconds,
          },
          ...(options.studioStorage ? { studio_storage: await options.studioStorage() } : {}),
        };
      },
    );
  },
  { name: 'health', dependencies: ['draining'] },
);
