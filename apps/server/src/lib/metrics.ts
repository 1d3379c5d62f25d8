import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { routeOf } from './request-route.js';

/**
 * Why a renewal did not go through: `payment_failed`, the charge was refused or there was no card to
 * charge (the subscription goes past_due, or is cancelled after the last retry); `error`, the attempt
 * itself broke (the provider or the database failed; the claim runs out and a later pass retries).
 */
export type RenewalFailureReason = 'payment_failed' | 'error';

/** What the services report to /metrics; a plain interface so a module never sees prom-client. */
export interface ServiceMetrics {
  renewalFailed(reason: RenewalFailureReason): void;
  /** A Studio query reached its engine (not answered from the cache, not joined to a run in flight). */
  studioQueryExecuted(source: string): void;
}

/** `2xx`, `4xx`, …: one series per class, not per status code. */
function statusClass(statusCode: number): string {
  return `${Math.floor(statusCode / 100)}xx`;
}

/**
 * One registry per app (tests build many apps in one process; prom-client's global registry would
 * mix them and refuse the second registration of a name). `enabled` is whether anything can read it
 * (METRICS_TOKEN set): otherwise requests are not observed and the process metrics are not started.
 */
export function createMetrics(options: { enabled: boolean }) {
  const registry = new Registry();
  const registers = [registry];
  if (options.enabled) {
    // Event-loop lag, heap, GC, CPU, file descriptors: prom-client's standard Node.js set.
    collectDefaultMetrics({ register: registry });
  }

  const httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending the answer, by method, route template and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const rateLimitRejections = new Counter({
    name: 'dp_rate_limit_rejections_total',
    help: 'Requests refused with 429 by a rate limit, by route template.',
    labelNames: ['route'] as const,
    registers,
  });
  const renewalFailures = new Counter({
    name: 'dp_renewal_failures_total',
    help: 'Subscription renewals that failed: payment_failed (refused charge or no card) or error (retried later).',
    labelNames: ['reason'] as const,
    registers,
  });
  const studioQueryExecutions = new Counter({
    name: 'dp_studio_query_executions_total',
    help: 'Studio queries run on their engine, by source kind (demo, tenant, extract); cache hits and runs joined to one in flight are not counted.',
    labelNames: ['source'] as const,
    registers,
  });

  return {
    registry,
    enabled: options.enabled,

    /** Counts an answered request; call once per request, when its answer has been sent. */
    observeRequest(request: FastifyRequest, reply: FastifyReply): void {
      if (!options.enabled) return;
      const route = routeOf(request);
      const labels = { method: request.method, route, status_class: statusClass(reply.statusCode) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, reply.elapsedTime / 1000);
      if (reply.statusCode === 429) rateLimitRejections.inc({ route });
    },

    renewalFailed(reason: RenewalFailureReason): void {
      renewalFailures.inc({ reason });
    },

    studioQueryExecuted(source: string): void {
      studioQueryExecutions.inc({ source });
    },
  };
}

export type AppMetrics = ReturnType<typeof createMetrics>;
