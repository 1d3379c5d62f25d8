import { createHash } from 'node:crypto';
import type { RedisConnection } from '../../../lib/redis.js';
import type { RunResult } from './engine.js';

type Stored = Omit<RunResult, 'cached' | 'elapsed_ms'>;

export interface ResultCache {
  get(key: string): Promise<Stored | undefined>;
  set(key: string, value: Stored, ttlSeconds: number): Promise<void>;
}

/** A stable key of everything that decides a result. */
export function resultKey(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

/** Results in process memory, least recently used dropped past `maxEntries`. */
export function createMemoryCache(maxEntries = 500, now: () => number = Date.now): ResultCache {
  const entries = new Map<string, { value: Stored; expires: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return Promise.resolve(undefined);
      entries.delete(key);
      if (entry.expires <= now()) return Promise.resolve(undefined);
      entries.set(key, entry);
      return Promise.resolve(entry.value);
    },
    set(key, value, ttlSeconds) {
      entries.set(key, { value, expires: now() + ttlSeconds * 1000 });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
      return Promise.resolve();
    },
  };
}

/**
 * Results in Redis, shared by every instance of a fleet; a Redis that fails is a cache miss (the
 * query runs), never an error answer.
 */
export function createRedisCache(redis: RedisConnection): ResultCache {
  const prefix = 'studio-result:';
  return {
    async get(key) {
      try {
        const text = await redis.client.get(prefix + key);
        redis.succeeded();
        return text === null ? undefined : (JSON.parse(text) as Stored);
      } catch (error) {
        redis.failed(error);
        return undefined;
      }
    },
    async set(key, value, ttlSeconds) {
      try {
        await redis.client.set(prefix + key, JSON.stringify(value), 'PX', Math.round(ttlSeconds * 1000));
        redis.succeeded();
      } catch (error) {
        redis.failed(error);
      }
    },
  };
}
