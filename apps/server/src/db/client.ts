import { fork } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** The one database type services see, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Repositories take either, so a service can compose them inside one transaction. */
export type DbOrTx = Database | Transaction;

/** Connections of a pg pool, as /metrics reports them. */
export interface PoolStats {
  /** Checked out by a query or transaction. */
  inUse: number;
  idle: number;
  /** Callers waiting for a connection because every one is in use. */
  waiting: number;
}

export function poolStatsOf(pool: pg.Pool): PoolStats {
  return { inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

export interface DatabaseHandle {
  db: Database;
  driver: 'pglite' | 'postgres';
  /**
   * The connection pool's state; null for PGlite, which is one in-process connection with no pool
   * (its queries queue inside PGlite, where nothing counts them).
   */
  poolStats(): PoolStats | null;
  migrate(): Promise<void>;
  /** Round-trips a trivial query; used by /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Any fixed number: it only has to be the same for every instance of this server. */
const MIGRATION_LOCK_ID = 727_274_001;

/**
 * Makes a pool unable to emit an unhandled error. pg raises 'error' on the pool for an idle client
 * whose connection drops, and on the client itself for one that is checked out (inside a query or a
 * transaction) when its backend dies: a server restart or `pg_terminate_backend` would otherwise end
 * the process. The query in flight still fails with its own error; the dead client is discarded on
 * release and the pool opens a new connection on next use.
 */
export function guardPool(pool: pg.Pool, onConnectionLost: (error: Error) => void): void {
  pool.on('error', onConnectionLost);
  pool.on('connect', (client) => {
    client.on('error', onConnectionLost);
  });
}

/** How long a request waits for a connection before it is told the database is unavailable. */
const CONNECT_TIMEOUT_MS = 5_000;

export function openPostgres(
  url: string,
  options: { poolSize?: number; onConnectionLost?: (error: Error) => void } = {},
): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // A client that loses its connection, idle or checked out, must not crash the process.
  guardPool(pool, (error) => options.onConnectionLost?.(error));
  const db = drizzleNodePg({ client: pool, schema }) as unknown as Database;
  return {
    db,
    driver: 'postgres',
    poolStats: () => poolStatsOf(pool),
    async migrate() {
      // Several instances may start at once: one migrates, the others wait on the advisory lock.
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migrateNodePg(drizzleNodePg({ client, schema }), { migrationsFolder });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
        client.release();
      }
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await pool.end();
    },
  };
}

/**
 * PostgreSQL settings of the embedded database, on top of PGlite's. Its shared buffers live in the
 * WebAssembly memory and are all resident from the start: PGlite's 128 MB default was a quarter of
 * an idle server's memory. Pages it no longer holds are read from the data folder's files, which
 * the operating system caches anyway.
 */
const PGLITE_SETTINGS = ['shared_buffers=16MB'];

/**
 * Every embedded database is opened through here: the migrations create pg_trgm (migration 0009),
 * which PGlite has to load into its client, and the settings above apply to all.
 */
export function createPglite(options: Omit<PGliteOptions, 'extensions' | 'startParams'> = {}): Promise<PGlite> {
  return PGlite.create({
    ...options,
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])],
  });
}

/** Wraps an open PGlite instance (a data folder, memory, or a loaded dump). */
export function wrapPglite(client: PGlite): DatabaseHandle {
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  return {
    db,
    driver: 'pglite',
    poolStats: () => null,
    async migrate() {
      await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
    },
    async ping() {
      await client.query('SELECT 1');
    },
    async close() {
      await client.close();
    },
  };
}

/**
 * Creates the cluster of a new data folder in a child process (`pglite-init`). initdb grows the
 * WebAssembly memory to 450-650 MiB, and neither closing that instance nor a worker thread gives it
 * all back (a reopened instance stayed near 300 MiB); a process that exits does.
 */
async function initPgliteCluster(dataDir: string): Promise<void> {
  // From the TypeScript sources (dev, tests), the child runs its source through tsx.
  const source = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(source ? './pglite-init.ts' : './pglite-init.js', import.meta.url));
  const child = fork(entry, [dataDir], {
    stdio: 'inherit',
    execArgv: source ? ['--conditions=source', '--import', 'tsx'] : [],
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`creating the embedded database in ${dataDir} failed (exit code ${code})`);
}

/**
 * A migrated, empty embedded cluster that the build makes (scripts/pglite-template.mjs) next to
 * the compiled module. Absent when running from the TypeScript sources.
 */
export const pgliteTemplateDir = fileURLToPath(new URL('./pglite-template', import.meta.url));

/**
 * A new data folder starts as a copy of the build's template when there is one: a copy takes a
 * fraction of a second, where initdb and every migration take several. The copy is made beside
 * the folder and renamed into place, so an interrupted one is never taken for a cluster; a folder
 * that already holds anything is never copied over.
 */
function copyPgliteTemplate(templateDir: string, dataDir: string): boolean {
  if (!existsSync(path.join(templateDir, 'PG_VERSION'))) return false;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return false;
  const staging = `${dataDir}.copying`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(path.dirname(dataDir), { recursive: true });
  cpSync(templateDir, staging, { recursive: true });
  rmSync(dataDir, { recursive: true, force: true });
  renameSync(staging, dataDir);
  return true;
}

export async function openPglite(dataDir: string, templateDir = pgliteTemplateDir): Promise<DatabaseHandle> {
  if (!existsSync(path.join(dataDir, 'PG_VERSION')) && !copyPgliteTemplate(templateDir, dataDir)) {
    mkdirSync(dataDir, { recursive: true });
    await initPgliteCluster(dataDir);
  }
  return wrapPglite(await createPglite({ dataDir }));
}

/** `DATABASE_URL` set: a PostgreSQL server; unset: the embedded database under DATA_DIR/pglite. */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  onConnectionLost?: (error: Error) => void;
}) {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, { onConnectionLost: options.onConnectionLost });
  }
  return openPglite(`${options.dataDir}/pglite`);
}
