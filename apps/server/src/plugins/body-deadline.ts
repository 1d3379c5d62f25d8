import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { clientErrorHandler } from './error-handler.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * How long this route's body may take to arrive once its headers have (REQUEST_TIMEOUT_SECONDS
     * unless the route says otherwise): Studio's extract upload takes longer.
     */
    bodyTimeoutMs?: number;
  }
}

export interface BodyDeadlineOptions {
  /** Every route's body deadline unless it sets `bodyTimeoutMs` (REQUEST_TIMEOUT_SECONDS). */
  defaultMs: number;
}

/** What Node raises when a request misses its `requestTimeout`, answered the same way. */
function requestTimeoutError(): Error & { code: string } {
  return Object.assign(new Error('The request body did not arrive in time'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
}

/**
 * A body deadline per route. Node's `requestTimeout` is one per server, so it is set to the longest
 * route's (an extract upload, whose body may be gigabytes) and this hook holds every other route to
 * REQUEST_TIMEOUT_SECONDS: a body trickled in byte by byte cannot hold a connection longer than that.
 * A body still arriving then is answered as Node answers its own timeout (a 408 `request_timeout`,
 * connection closed). What is left of a body after an early answer (a 413, say) is drained
 * (decision 035) for REQUEST_TIMEOUT_SECONDS at most, whatever the route's own deadline; then the
 * connection is dropped.
 */
export const bodyDeadlinePlugin = fp<BodyDeadlineOptions>(
  async (app: FastifyInstance, { defaultMs }) => {
    app.addHook('onRequest', (request, reply, done) => {
      const { headers, raw } = request;
      // Over HTTP/1.1 only a Content-Length or a Transfer-Encoding announces a body.
      const hasBody =
        headers['transfer-encoding'] !== undefined ||
        (headers['content-length'] !== undefined && headers['content-length'] !== '0');
      if (!hasBody || raw.complete) {
        done();
        return;
      }
      const onDeadline = () => {
        if (raw.complete) return;
        // Destroying the request destroys its connection (and only the request under inject()).
        if (reply.raw.headersSent) raw.destroy();
        else clientErrorHandler.call(app, requestTimeoutError(), raw.socket);
      };
      const limitMs = request.routeOptions.config.bodyTimeoutMs ?? defaultMs;
      // Unreferenced: a closing server does not wait for a deadline its connections will not reach.
      let timer = setTimeout(onDeadline, limitMs).unref();
      reply.raw.once('finish', () => {
        if (raw.complete || limitMs <= defaultMs) return;
        clearTimeout(timer);
        timer = setTimeout(onDeadline, defaultMs).unref();
      });
      const stop = () => clearTimeout(timer);
      raw.once('end', stop);
      raw.once('close', stop);
      done();
    });
  },
  { name: 'body-deadline' },
);
