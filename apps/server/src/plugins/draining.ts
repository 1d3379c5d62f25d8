import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Begins the drain that precedes a shutdown (src/shutdown.ts): from now on /readyz answers 503,
     * so load balancers take this instance out of rotation, and every response closes its
     * connection, so no kept-alive connection outlives the drain. Every request is still served.
     */
    startDraining(): void;
    /** Whether the drain has begun. */
    isDraining(): boolean;
  }
}

/** The draining state of the instance; see `startDraining`. */
export const drainingPlugin = fp(
  async (app: FastifyInstance) => {
    let draining = false;
    app.decorate('startDraining', () => {
      draining = true;
    });
    app.decorate('isDraining', () => draining);
    // onSend, not onRequest: a request already in flight when the drain begins answers with
    // `Connection: close` too, so its connection does not sit idle until the keep-alive timeout.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (draining) {
        reply.header('connection', 'close');
        done(null, payload);
        return;
      }
      // Fastify closes the connection after answering before the body was read (a 413 on an
      // announced length, a parse error), and closing while the client still sends resets the
      // connection: the client often never reads the answer. Kept alive, Node reads the rest of the
      // body off the wire and drops it (bounded by the request timeout) and the client gets the
      // answer: nginx's lingering close, in effect.
      if (!request.raw.complete && reply.getHeader('connection') === 'close') reply.removeHeader('connection');
      done(null, payload);
    });
  },
  { name: 'draining' },
);
