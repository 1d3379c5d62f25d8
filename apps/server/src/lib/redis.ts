import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { RedisConfig } from '../config.js';
import { describeError } from './errors.js';

/** Reconnection attempts back off to this: a Redis that is back is used again within about a second. */
const MAX_RECONNECT_DELAY_MS = 1_000;

/**
 * The one Redis client of the process (decision 049), with its outage state: one error line when
 * Redis becomes unreachable, one info line when it answers again, whatever the number of requests
 * that failed in between. The client reconnects by itself; nothing restarts.
 */
export interface RedisConnection {
  readonly client: Redis;
  /** A command failed: the first failure of an outage is logged, the others are not. */
  failed(error: unknown): void;
  /** A command succeeded: if Redis was down, that it is back is logged. */
  succeeded(): void;
  /**
   * Connects and waits for the first attempt, so a server starts answering with its counts in
   * place. Never throws: unreachable, Redis is logged as down and the client keeps trying.
   */
  connect(): Promise<void>;
  /** Resolves when Redis answers, throws at once (or after the command timeout) when it does not. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The client, connected by `connect()`. ioredis loads here, only when REDIS_URL is set: an embedded
 * server (one instance, no Redis) does not carry it (about 7.6 MiB and 46 ms of start).
 */
export async function connectRedis(config: RedisConfig, log: FastifyBaseLogger): Promise<RedisConnection> {
  const { Redis } = await import('ioredis');
  const client = new Redis(config.url, {
    // Connected by `connect()` once the app is ready, not by building it.
    lazyConnect: true,
    // Every key (the rate-limit plugin's, the login throttle's) goes under the prefix.
    keyPrefix: config.keyPrefix,
    // While Redis is away, commands fail at once instead of queueing until it is back: the request
    // is answered (a 503 where a count is needed) without waiting.
    enableOfflineQueue: false,
    // A command cut off by a lost connection fails right away rather than after some reconnections,
    // and is never sent again later: its request has been answered already.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout: 2_000,
    // A Redis that accepts connections but does not answer (overloaded, a black-holed route) is down too.
    commandTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
  });
  const url = new URL(config.url);
  // Where it is, for the log: host and port only, never the user or password of the URL.
  const where = `${url.hostname}:${url.port || '6379'}`;
  let down = false;
  let closing = false;

  function failed(error: unknown): void {
    if (closing || down) return;
    down = true;
    log.error(
      { redis: where, reason: describeError(error) },
      'Redis unavailable: the actions counted there (sign-in, two-factor, single sign-on, recovery, sign-up, e-mail verification, contact) answer 503 until it is back',
    );
  }

  function succeeded(): void {
    if (!down) return;
    down = false;
    log.info({ redis: where }, 'Redis available again');
  }

  // Connection failures are reported here on every reconnection attempt; without a listener
  // ioredis would print each of them.
  client.on('error', failed);
  client.on('ready', succeeded);

  return {
    client,
    failed,
    succeeded,
    async connect() {
      try {
        await client.connect();
      } catch (error) {
        // Reported through the `error` event already; the client reconnects on its own.
        failed(error);
      }
    },
    async ping() {
      try {
        await client.ping();
      } catch (error) {
        failed(error);
        throw error;
      }
      succeeded();
    },
    async close() {
      closing = true;
      if (client.status === 'ready') {
        try {
          await client.quit();
          return;
        } catch {
          // Lost while quitting: nothing left to close gracefully.
        }
      }
      client.disconnect();
    },
  };
}
