import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from './db/client.js';

/** While closing, connections left idle (a streamed answer that ended keep-alive) are closed this often. */
const IDLE_SWEEP_MS = 250;

/**
 * Takes a serving instance out of service without failing a request
 * (docs/decisions/051-graceful-shutdown-and-fleet.md):
 *
 * 1. The drain: /readyz answers 503 at once and every response closes its connection, while every
 *    request is still served for `drainMs`, the time a load balancer needs to notice. The background
 *    workers are told to stop: each finishes the batch it is working on and starts no other.
 * 2. The close: the server stops accepting connections, closes the idle ones and waits for the
 *    requests in flight; then the workers' last batches are awaited and the tenant pools closed
 *    (the app's onClose), and finally the database pool.
 *
 * Resolves when everything is closed; the caller exits. It sets no deadline of its own: server.ts
 * bounds the whole with SHUTDOWN_TIMEOUT_MS.
 */
export async function shutDownGracefully(
  app: FastifyInstance,
  database: DatabaseHandle,
  options: { drainMs: number },
): Promise<void> {
  const started = Date.now();
  app.startDraining();
  app.log.info({ drainMs: options.drainMs }, 'draining: /readyz answers 503, still serving');
  const workersStopped = app.services.stopWorkers();
  await delay(options.drainMs);

  app.log.info('closing: no new connections, waiting for the requests in flight');
  const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
  await workersStopped;
  await database.close();
  app.log.info({ ms: Date.now() - started }, 'shut down');
}
