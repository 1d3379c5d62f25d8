import type { FastifyReply } from 'fastify';

/**
 * Aborted when the client goes away before its answer is sent, so that work done for it (a Studio
 * query, an upload's reading) stops. The reply's `close` comes once the answer is written or the
 * connection dropped; asked for after that (a route that awaited something first), it is aborted
 * already.
 */
export function disconnectSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  if (reply.raw.closed) {
    if (!reply.raw.writableFinished) controller.abort();
    return controller.signal;
  }
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
