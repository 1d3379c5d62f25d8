import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { StudioConfig } from '../../../config.js';
import { AppError, describeError } from '../../../lib/errors.js';
import { DEMO_TABLES, ensureDemoDatabase } from './demo-data.js';
import { openHardened } from './duckdb-database.js';
import type { Lease } from './extract-cache.js';
import { EXTRACT_TABLE, sqlString } from './extract-files.js';
import type { ExtractStorage } from './extract-storage.js';
import type { ExtractCatalog, RunRequest, TableSummary } from './types.js';

/** The demo's tables: one set, so the guard's verdicts on it are kept. */
const DEMO_TABLE_SET: ReadonlySet<string> = new Set(DEMO_TABLES);

/** Most tenants whose extract database stays open; the least recently used closes first. */
export const EXTRACT_DATABASES_MAX = 16;

export const notFoundSource = (source: string) =>
  new AppError('source_not_found', `There is no source ${source} here.`);

/** One tenant's hardened DuckDB with its extracts attached, open while queries use it. */
interface ExtractDatabase {
  /** The extract ids it attached, sorted: another set means another database. */
  key: string;
  instance: Promise<DuckDBInstance>;
  tables: ReadonlySet<string>;
  users: number;
  retired: boolean;
  /** Its files, held in the local cache until the database has closed. */
  leases: Lease[];
  /** Set once it closes. */
  closed?: Promise<void>;
}

/** The DuckDB a demo or extract run uses, the tables its SQL may name, and what versions its results. */
export interface DuckdbSource {
  instance: DuckDBInstance;
  tables: ReadonlySet<string>;
  version: string;
  /** Whose data it holds: undefined for the demo, shared by everyone. */
  tenantId?: string;
  /** Keeps the database open while an execution uses it (a new extract may retire it meanwhile). */
  hold: () => () => void;
  /** Says the caller is done with it (once it no longer holds it either, a retired one closes). */
  release: () => void;
}

export interface InstancePoolDeps {
  settings: Pick<StudioConfig, 'dir' | 'demoRows' | 'duckdbMemoryLimit' | 'duckdbThreads'>;
  log: FastifyBaseLogger;
  extracts?: ExtractCatalog | undefined;
  storage?: ExtractStorage | undefined;
  /** Deleted tenants: a run that began before the deletion opens nothing for them. */
  forgotten: ReadonlySet<string>;
}

/**
 * The engine's DuckDB databases: the demo's, one read-only file shared by everyone and opened on
 * first use, and each tenant's extract database (at most EXTRACT_DATABASES_MAX open, the least
 * recently used closing first once no query uses it).
 */
export function createInstancePool(deps: InstancePoolDeps) {
  const { settings, log } = deps;
  let demo: Promise<DuckDBInstance> | undefined;
  // Each database leaving the map (replaced, evicted, forgotten, reclaimed, closed) is retired.
  const extractDatabases = new LRUCache<string, ExtractDatabase>({
    max: EXTRACT_DATABASES_MAX,
    dispose: (database) => {
      database.retired = true;
      void closeWhenUnused(database);
    },
  });

  function demoInstance(): Promise<DuckDBInstance> {
    demo ??= (async () => {
      const file = await ensureDemoDatabase(settings.dir, settings.demoRows);
      return openHardened(file, {
        readOnly: true,
        memoryLimit: settings.duckdbMemoryLimit,
        threads: settings.duckdbThreads,
      });
    })().catch((error: unknown) => {
      demo = undefined;
      log.error({ err: describeError(error) }, 'the Studio demo database could not be opened');
      throw new AppError('source_unavailable', 'The demo source is not available now.', { 'Retry-After': '5' });
    });
    return demo;
  }

  /** Closes a retired database once no query uses it; its files are let go after. */
  function closeWhenUnused(database: ExtractDatabase): Promise<void> {
    if (!database.retired || database.users > 0) return Promise.resolve();
    database.closed ??= database.instance
      .then((instance) => instance.closeSync())
      .catch(() => undefined)
      .then(() => {
        for (const lease of database.leases.splice(0)) lease.release();
      });
    return database.closed;
  }

  /** One more user of `database`; the returned function ends that use (calling it twice is harmless). */
  function use(database: ExtractDatabase): () => void {
    database.users += 1;
    let used = true;
    return () => {
      if (!used) return;
      used = false;
      database.users -= 1;
      void closeWhenUnused(database);
    };
  }

  // The cache of an object store needs room that only idle databases' files hold: they close (the
  // next query opens them again), never one a query uses.
  deps.storage?.setReclaimer(async () => {
    const idle = [...extractDatabases.entries()].filter(([, database]) => database.users === 0);
    for (const [tenantId] of idle) extractDatabases.delete(tenantId);
    await Promise.all(idle.map(([, database]) => closeWhenUnused(database)));
  });

  /** A new database of `extracts`: attached read-only, each named by a view, then locked. */
  function openExtractDatabase(
    tenantId: string,
    storage: ExtractStorage,
    extracts: Awaited<ReturnType<ExtractCatalog['list']>>,
    key: string,
  ): ExtractDatabase {
    const tempDirectory = path.join(settings.dir, 'tmp');
    const leases: Lease[] = [];
    const open = async () => {
      await mkdir(tempDirectory, { recursive: true });
      try {
        // Fetched into the local cache when the store is remote (in parallel: a cold cache waits once).
        const opened = await Promise.allSettled(extracts.map((extract) => storage.open(extract.key)));
        for (const result of opened) if (result.status === 'fulfilled') leases.push(result.value);
        const failed = opened.find((result) => result.status === 'rejected');
        if (failed) throw failed.reason;
        return await openHardened(':memory:', {
          readOnly: false,
          memoryLimit: settings.duckdbMemoryLimit,
          threads: settings.duckdbThreads,
          tempDirectory,
          setup: async (connection) => {
            for (const [index, extract] of extracts.entries()) {
              const file = leases[index]!.path;
              await connection.run(`ATTACH ${sqlString(file)} AS extract_${index} (READ_ONLY)`);
              await connection.run(
                `CREATE VIEW main."${extract.name.replaceAll('"', '""')}" AS SELECT * FROM extract_${index}.main.${EXTRACT_TABLE}`,
              );
            }
          },
        });
      } catch (error) {
        for (const lease of leases.splice(0)) lease.release();
        throw error;
      }
    };
    const created: ExtractDatabase = {
      key,
      tables: new Set(extracts.map((extract) => extract.name.toLowerCase())),
      users: 0,
      retired: false,
      leases,
      instance: open(),
    };
    created.instance.catch((error: unknown) => {
      if (extractDatabases.peek(tenantId) === created) extractDatabases.delete(tenantId);
      log.error({ tenantId, err: describeError(error) }, "a tenant's Studio extract database could not be opened");
    });
    return created;
  }

  /**
   * The tenant's extract database, holding its extracts as `extracts` lists them now: a hardened
   * in-memory DuckDB that attached each extract's file read-only and named it by a view, before
   * external access was turned off and the configuration locked. It sees no other tenant's file and
   * no demo table. A new or deleted extract makes a new database; the old one closes when its last
   * query ends. `release` must be called once the caller is done with it.
   */
  async function extractDatabase(tenantId: string): Promise<{ database: ExtractDatabase; release: () => void }> {
    const catalog = deps.extracts;
    const storage = deps.storage;
    if (!catalog || !storage) throw notFoundSource('extract');
    const extracts = [...(await catalog.list(tenantId))].sort((a, b) => a.id.localeCompare(b.id));
    if (deps.forgotten.has(tenantId)) throw notFoundSource('extract');
    const key = extracts.map((extract) => extract.id).join(',');
    // Read as most recently used: the least recently used are the ones to close when there are too many.
    let database = extractDatabases.get(tenantId);
    if (database?.key !== key) {
      // Copies of extracts deleted meanwhile (through this instance or another) go from the cache.
      storage.forgetOthers(tenantId, new Set(extracts.map((extract) => extract.key)));
      database = openExtractDatabase(tenantId, storage, extracts, key);
      extractDatabases.set(tenantId, database);
    }
    const used = database;
    const release = use(used);
    try {
      await used.instance;
    } catch {
      release();
      throw new AppError('source_unavailable', "The tenant's extracts are not available now.", { 'Retry-After': '5' });
    }
    return { database: used, release };
  }

  return {
    /** The demo's tables with their columns, as DuckDB's catalog lists them. */
    async demoTables(): Promise<TableSummary[]> {
      const instance = await demoInstance();
      const connection = await instance.connect();
      try {
        const reader = await connection.runAndReadAll(
          `SELECT table_name, column_name, data_type FROM information_schema.columns
           WHERE table_schema = 'main' ORDER BY table_name, ordinal_position`,
        );
        const tables = new Map<string, TableSummary>();
        for (const [table, column, type] of reader.getRows() as [string, string, string][]) {
          const entry = tables.get(table) ?? { name: table, columns: [] };
          entry.columns.push({ name: column, type });
          tables.set(table, entry);
        }
        return [...tables.values()];
      } finally {
        connection.closeSync();
      }
    },

    /** The DuckDB a demo or extract run uses; `release()` once done with it. */
    async source(request: Pick<RunRequest, 'source' | 'scope'>): Promise<DuckdbSource> {
      if (request.source === 'demo') {
        // The demo is the same for everyone: its results are shared by all tenants.
        const noop = () => undefined;
        return {
          instance: await demoInstance(),
          tables: DEMO_TABLE_SET,
          version: `demo:${settings.demoRows}`,
          hold: () => noop,
          release: noop,
        };
      }
      const tenantId = request.scope.tenantId;
      if (request.source !== 'extract' || tenantId === null || !deps.extracts) throw notFoundSource(request.source);
      const { database, release } = await extractDatabase(tenantId);
      return {
        instance: await database.instance,
        tables: database.tables,
        // The set of extract ids: the same on every instance of a fleet, new when one is added or deleted.
        version: `extract:${tenantId}:${database.key}`,
        tenantId,
        hold: () => use(database),
        release,
      };
    },

    /** Closes the tenant's extract database once the queries still using it end. */
    forget(tenantId: string): void {
      extractDatabases.delete(tenantId);
    },

    /** Whether the tenant's extract database is open (tests look at it). */
    holds(tenantId: string): boolean {
      return extractDatabases.has(tenantId);
    },

    /** Closes every database (the extract ones once their queries end: the engine stopped them first). */
    async close(): Promise<void> {
      extractDatabases.clear();
      const pending = demo;
      demo = undefined;
      if (pending) {
        const instance = await pending.catch(() => undefined);
        instance?.closeSync();
      }
    },
  };
}

export type InstancePool = ReturnType<typeof createInstancePool>;
