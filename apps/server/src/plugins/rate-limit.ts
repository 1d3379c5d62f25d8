import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { authMessages } from '@dataplatform/contract';
import type { RateLimitRule } from '../config.js';
import { rateLimitUnavailable, tooManyRequests } from '../lib/errors.js';
import type { RedisConnection } from '../lib/redis.js';

type KeyOf = (request: FastifyRequest) => string | undefined;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A preHandler that counts the request under `name` and the key `keyOf` returns (skipped when it
     * returns undefined) and answers 429 with a `detail` once the rule's budget is spent. While the
     * count cannot be kept (Redis unreachable) it answers 503 `rate_limit_unavailable` with the
     * detail `unavailable`: every limited route is a target for abuse, so it fails closed.
     */
    limit(name: string, rule: RateLimitRule, keyOf: KeyOf, unavailable: string): preHandlerAsyncHookHandler;
  }
}

export const byIp: KeyOf = (request) => request.ip;

/** Per-account key from a body or path field, normalised like the e-mails we store. */
export function byField(part: 'body' | 'params', field: string): KeyOf {
  return (request) => {
    const source = request[part] as Record<string, unknown> | undefined;
    const value = source?.[field];
    return typeof value === 'string' && value !== '' ? value.trim().toLowerCase() : undefined;
  };
}

export interface RateLimitOptions {
  /** Count in this Redis, shared by every instance (decision 049); unset: in this process's memory. */
  redis?: RedisConnection | undefined;
}

export const rateLimitPlugin = fp<RateLimitOptions>(
  async (app: FastifyInstance, options) => {
    const { redis } = options;
    await app.register(
      rateLimit,
      redis
        ? // The plugin's Redis store: one atomic script per count, under REDIS_KEY_PREFIX + `rate-limit:`.
          // A store error is thrown to us (skipOnError false), and answered below.
          { global: false, redis: redis.client, nameSpace: 'rate-limit:', skipOnError: false }
        : // Per-instance memory store: several instances each count on their own (decision 004).
          { global: false, cache: 50_000 },
    );

    app.decorate('limit', (name: string, rule: RateLimitRule, keyOf: KeyOf, unavailable: string) => {
      const check = app.createRateLimit({
        max: rule.max,
        timeWindow: rule.windowMs,
        keyGenerator: (request: FastifyRequest) => `${name}:${keyOf(request) ?? ''}`,
      });
      const handler: preHandlerAsyncHookHandler = async (request) => {
        if (keyOf(request) === undefined) return;
        let result;
        try {
          result = await check(request);
        } catch (error) {
          // The memory store does not fail: anything it throws is a bug, answered 500.
          if (!redis) throw error;
          // Redis cannot count: logged once per outage, and the request is refused.
          redis.failed(error);
          throw rateLimitUnavailable(unavailable);
        }
        redis?.succeeded();
        if (!result.isAllowed && result.isExceeded) {
          throw tooManyRequests(authMessages.tooManyRequests, result.ttlInSeconds);
        }
      };
      return handler;
    });
  },
  { name: 'rate-limit', dependencies: ['error-handler'] },
);
