import { createHash, timingSafeEqual } from 'node:crypto';
import { authMessages } from '@dataplatform/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import type { DatabaseHandle, PoolStats } from '../db/client.js';
import { unauthorized } from '../lib/errors.js';
import type { AppMetrics } from '../lib/metrics.js';
import { createOutageTracker } from '../lib/outage.js';
import type { MailBacklog } from './health.js';

export const METRICS_PATH = '/metrics';

export interface MetricsPluginOptions {
  metrics: AppMetrics;
  /** The bearer token a scrape must present (METRICS_TOKEN); unset: no /metrics route at all. */
  token: string | undefined;
  database: DatabaseHandle;
  outboxBacklog: () => Promise<MailBacklog>;
  tenantPools: () => PoolStats & { open: number };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether `Authorization` carries `Bearer <token>`, compared in constant time (digests: equal lengths). */
function presentsToken(header: string | undefined, expected: Buffer): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), expected);
}

/**
 * `GET /metrics` in the Prometheus text format (decision 050). Never public: without METRICS_TOKEN
 * the route does not exist (404 like any unknown path) and nothing is measured; with it, a scrape
 * must send `Authorization: Bearer <METRICS_TOKEN>` or gets 401. It is an operations endpoint beside
 * /healthz and /readyz, outside /api/v1 and its sessions, and not in the OpenAPI document.
 *
 * Counters move as things happen (requests, 429s, renewal failures); the gauges below are read when
 * Prometheus scrapes: pool counters from memory, the outbox backlog with one indexed query.
 */
export const metricsPlugin = fp<MetricsPluginOptions>(
  async (app: FastifyInstance, options) => {
    const { metrics, token } = options;
    if (token === undefined || !metrics.enabled) return;
    const registers = [metrics.registry];

    app.addHook('onResponse', (request, reply, done) => {
      metrics.observeRequest(request, reply);
      done();
    });

    const pools = (): [string, PoolStats | null][] => [
      ['control', options.database.poolStats()],
      ['tenants', options.tenantPools()],
    ];
    const poolGauge = (name: string, help: string, read: (stats: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['pool'] as const,
        registers,
        collect() {
          this.reset();
          // PGlite has no pool: the control series are absent rather than a made-up 0.
          for (const [pool, stats] of pools()) if (stats) this.set({ pool }, read(stats));
        },
      });
    poolGauge(
      'dp_db_pool_connections_in_use',
      'Database connections checked out by a query or transaction (control: the platform database; tenants: all tenant pools).',
      (stats) => stats.inUse,
    );
    poolGauge('dp_db_pool_connections_idle', 'Open database connections not in use.', (stats) => stats.idle);
    poolGauge(
      'dp_db_pool_waiting',
      'Queries waiting for a database connection because every one is in use.',
      (stats) => stats.waiting,
    );
    new Gauge({
      name: 'dp_tenant_pools_open',
      help: 'Tenant database pools open (at most TENANT_POOL_MAX).',
      registers,
      collect() {
        this.set(options.tenantPools().open);
      },
    });

    // One query per scrape feeds the three outbox gauges; while the database is down they have no
    // sample (a stale or zero backlog would be a lie), and the outage is logged once, not per scrape.
    const outage = createOutageTracker(app.log, 'metrics');
    let backlogRead: Promise<MailBacklog | undefined> | undefined;
    const readBacklog = () =>
      (backlogRead ??= options
        .outboxBacklog()
        .then((backlog) => {
          outage.succeeded();
          return backlog;
        })
        .catch((error: unknown) => {
          outage.failed(error);
          return undefined;
        })
        .finally(() => {
          backlogRead = undefined;
        }));
    const outboxGauge = (name: string, help: string, read: (backlog: MailBacklog) => number) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          const backlog = await readBacklog();
          if (backlog) this.set(read(backlog));
          else this.remove();
        },
      });
    outboxGauge('dp_outbox_backlog', 'Mails waiting in the outbox to be sent.', (backlog) => backlog.pending);
    outboxGauge(
      'dp_outbox_oldest_pending_age_seconds',
      'How long the oldest mail still waiting has waited (0 when none waits).',
      (backlog) => backlog.oldestPendingSeconds,
    );
    outboxGauge(
      'dp_outbox_failed',
      'Mails given up on (still unsent after MAIL_RETRY_HOURS).',
      (backlog) => backlog.failed,
    );

    const expected = digest(token);
    app.get(
      METRICS_PATH,
      {
        schema: { hide: true },
        onRequest: async (request) => {
          if (!presentsToken(request.headers.authorization, expected)) {
            throw unauthorized(authMessages.notAuthenticated);
          }
        },
      },
      async (_request, reply) => {
        const body = await metrics.registry.metrics();
        return reply
          .header('content-type', metrics.registry.contentType)
          .header('cache-control', 'no-store')
          .send(body);
      },
    );
  },
  { name: 'metrics', dependencies: ['error-handler'] },
);
