import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Config } from '../../config.js';
import { guardPool, poolStatsOf, type PoolStats } from '../../db/client.js';

interface PoolEntry {
  pool: pg.Pool;
  /** The sealed URL the pool was opened with: a different one means the URL changed. */
  sealedUrl: string;
  idleTimer: NodeJS.Timeout;
  /** Calls running on the pool; a retired pool ends once this drops to zero. */
  inUse: number;
  retired: boolean;
  ended: boolean;
}

/**
 * At most `maxPools` tenant pools, opened on first use and closed when idle, when the tenant's URL
 * changes, when it is deleted or deactivated, and least recently used first when over the bound.
 * A pool retired while calls run on it ends when the last of them finishes.
 */
export function createTenantPools(deps: {
  config: Config['tenantDatabases'];
  /** Plain URL of a tenant's database from its sealed form. */
  openUrl: (tenantId: string, sealedUrl: string) => string;
  log: FastifyBaseLogger;
}) {
  const { config, openUrl, log } = deps;
  // Map order is use order: the first key is the least recently used.
  const entries = new Map<string, PoolEntry>();

  function endIfDone(tenantId: string, entry: PoolEntry) {
    if (!entry.retired || entry.inUse > 0 || entry.ended) return;
    entry.ended = true;
    entry.pool.end().catch((error: unknown) => log.warn({ tenantId, err: error }, 'closing a tenant pool failed'));
  }

  function retire(tenantId: string) {
    const entry = entries.get(tenantId);
    if (!entry) return;
    entries.delete(tenantId);
    clearTimeout(entry.idleTimer);
    entry.retired = true;
    endIfDone(tenantId, entry);
  }

  function open(tenantId: string, sealedUrl: string): PoolEntry {
    const pool = new pg.Pool({
      connectionString: openUrl(tenantId, sealedUrl),
      max: config.poolSize,
      connectionTimeoutMillis: config.connectTimeoutMs,
      idleTimeoutMillis: Math.min(config.idleMs, 30_000),
      application_name: 'dataplatform',
    });
    // A connection dropped by the server, idle or in use, must not crash the process.
    guardPool(pool, (error) => log.warn({ tenantId, err: error.message }, 'tenant database connection lost'));
    const entry: PoolEntry = {
      pool,
      sealedUrl,
      inUse: 0,
      retired: false,
      ended: false,
      idleTimer: setTimeout(() => onIdle(tenantId, entry), config.idleMs).unref(),
    };
    entries.set(tenantId, entry);
    while (entries.size > config.maxPools) {
      const leastRecent = entries.keys().next().value;
      if (leastRecent === undefined) break;
      retire(leastRecent);
    }
    return entry;
  }

  function onIdle(tenantId: string, entry: PoolEntry) {
    if (entries.get(tenantId) !== entry) return;
    if (entry.inUse > 0) {
      entry.idleTimer.refresh();
      return;
    }
    retire(tenantId);
  }

  function acquire(tenantId: string, sealedUrl: string): PoolEntry {
    const existing = entries.get(tenantId);
    if (existing && existing.sealedUrl === sealedUrl) {
      entries.delete(tenantId);
      entries.set(tenantId, existing);
      existing.idleTimer.refresh();
      return existing;
    }
    if (existing) retire(tenantId);
    return open(tenantId, sealedUrl);
  }

  return {
    /** Runs `work` on the tenant's pool, opening it if needed (or anew if the URL changed). */
    async use<T>(tenantId: string, sealedUrl: string, work: (pool: pg.Pool) => Promise<T>): Promise<T> {
      const entry = acquire(tenantId, sealedUrl);
      entry.inUse += 1;
      try {
        return await work(entry.pool);
      } finally {
        entry.inUse -= 1;
        entry.idleTimer.refresh();
        endIfDone(tenantId, entry);
      }
    },
    /** Closes the tenant's pool if one is open (URL changed elsewhere, tenant deleted or deactivated). */
    close(tenantId: string): void {
      retire(tenantId);
    },
    /** Tenants with an open pool, least recently used first. */
    openTenantIds(): string[] {
      return [...entries.keys()];
    },
    /** How many pools are open, and their connections added up (for /metrics). */
    stats(): PoolStats & { open: number } {
      const total = { open: entries.size, inUse: 0, idle: 0, waiting: 0 };
      for (const entry of entries.values()) {
        const stats = poolStatsOf(entry.pool);
        total.inUse += stats.inUse;
        total.idle += stats.idle;
        total.waiting += stats.waiting;
      }
      return total;
    },
    async closeAll(): Promise<void> {
      const all = [...entries.entries()];
      entries.clear();
      await Promise.all(
        all.map(([, entry]) => {
          clearTimeout(entry.idleTimer);
          entry.retired = true;
          if (entry.ended) return Promise.resolve();
          entry.ended = true;
          return entry.pool.end().catch(() => undefined);
        }),
      );
    },
  };
}

export type TenantPools = ReturnType<typeof createTenantPools>;
