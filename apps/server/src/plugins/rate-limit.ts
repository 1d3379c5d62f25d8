import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { authMessages } from '@dataplatform/contract';
import type { RateLimitRule } from '../config.js';
import { tooManyRequests } from '../lib/errors.js';

type KeyOf = (request: FastifyRequest) => string | undefined;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A preHandler that counts the request under `name` and the key `keyOf` returns (skipped when it
     * returns undefined) and answers 429 with a `detail` once the rule's budget is spent.
     */
    limit(name: string, rule: RateLimitRule, keyOf: KeyOf): preHandlerAsyncHookHandler;
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

export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    // Per-instance memory store; several instances each count on their own (see decision 004).
    await app.register(rateLimit, { global: false, cache: 50_000 });

    app.decorate('limit', (name: string, rule: RateLimitRule, keyOf: KeyOf) => {
      const check = app.createRateLimit({
        max: rule.max,
        timeWindow: rule.windowMs,
        keyGenerator: (request: FastifyRequest) => `${name}:${keyOf(request) ?? ''}`,
      });
      const handler: preHandlerAsyncHookHandler = async (request) => {
        if (keyOf(request) === undefined) return;
        const result = await check(request);
        if (!result.isAllowed && result.isExceeded) {
          throw tooManyRequests(authMessages.tooManyRequests, result.ttlInSeconds);
        }
      };
      return handler;
    });
  },
  { name: 'rate-limit' },
);
