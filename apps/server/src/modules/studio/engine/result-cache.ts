import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { RedisConnection } from '../../../lib/redis.js';
import type { StoredResult } from './types.js';

export interface ResultCache {
  get(key: string): Promise<StoredResult | undefined>;
  set(key: string, value: StoredResult, ttlSeconds: number): Promise<void>;
  /** Drops every result of the tenant's data (its keys' `tenantPrefix`); answers how many were there. */
  dropTenant(tenantId: string): Promise<number>;
  /** How many results of the tenant's data are held (tests look at it). */
  countTenant(tenantId: string): Promise<number>;
}

/** What begins the key of every result read from one tenant's data, so that all of them can be dropped. */
function tenantPrefix(tenantId: string): string {
  return `t:${tenantId}:`;
}

/**
 * A stable key of everything that decides a result; a result of a tenant's data (its extracts, its
 * database) names the tenant first, one shared by everyone (the demo) does not.
 */
export function resultKey(parts: unknown[], tenantId?: string): string {
  const hash = createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
  return tenantId === undefined ? hash : `${tenantPrefix(tenantId)}${hash}`;
}

/** Results in process memory, least recently used dropped past `maxEntries`, each kept for its own TTL. */
export function createMemoryCache(
  maxEntries = 500,
  now: () => number = performance.now.bind(performance),
): ResultCache {
  // ttlResolution 0: each read asks `now` (lru-cache otherwise reuses one reading for a millisecond).
  const entries = new LRUCache<string, StoredResult>({ max: maxEntries, perf: { now }, ttlResolution: 0 });
  const keysOf = (tenantId: string) => {
    const prefix = tenantPrefix(tenantId);
    return [...entries.keys()].filter((key) => key.startsWith(prefix));
  };
  return {
    get(key) {
      return Promise.resolve(entries.get(key));
    },
    set(key, value, ttlSeconds) {
      entries.set(key, value, { ttl: ttlSeconds * 1000 });
      return Promise.resolve();
    },
    dropTenant(tenantId) {
      const keys = keysOf(tenantId);
      for (const key of keys) entries.delete(key);
      return Promise.resolve(keys.length);
    },
    countTenant(tenantId) {
      return Promise.resolve(keysOf(tenantId).length);
    },
  };
}

/**
 * Results in Redis, shared by every instance of a fleet; a Redis that fails is a cache miss (the
 * query runs), never an error answer.
 */
export function createRedisCache(redis: RedisConnection): ResultCache {
  const prefix = 'studio-result:';
  /**
   * The tenant's keys as the client names them. SCAN's pattern and answers carry the client's
   * keyPrefix (ioredis adds it to commands' keys, not to patterns), so it is added and taken off here.
   */
  async function keysOf(tenantId: string): Promise<string[]> {
    const clientPrefix = redis.client.options.keyPrefix ?? '';
    const literal = `${clientPrefix}${prefix}${tenantPrefix(tenantId)}`.replace(/[*?[\]\\]/g, '\\$&');
    const pattern = `${literal}*`;
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.client.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      keys.push(...found.map((key) => key.slice(clientPrefix.length)));
    } while (cursor !== '0');
    return keys;
  }
  return {
    async get(key) {
      try {
        const text = await redis.client.get(prefix + key);
        redis.succeeded();
        return text === null ? undefined : (JSON.parse(text) as StoredResult);
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
    async dropTenant(tenantId) {
      try {
        const keys = await keysOf(tenantId);
        for (let at = 0; at < keys.length; at += 500) await redis.client.unlink(...keys.slice(at, at + 500));
        redis.succeeded();
        return keys.length;
      } catch (error) {
        redis.failed(error);
        throw error;
      }
    },
    async countTenant(tenantId) {
      return (await keysOf(tenantId)).length;
    },
  };
}
