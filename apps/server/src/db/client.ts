import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
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

export interface DatabaseHandle {
  db: Database;
  driver: 'pglite' | 'postgres';
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

/** Wraps an open PGlite instance (a data folder, memory, or a loaded dump). */
export function wrapPglite(client: PGlite): DatabaseHandle {
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  return {
    db,
    driver: 'pglite',
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

export async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  mkdirSync(dataDir, { recursive: true });
  const fresh = !existsSync(path.join(dataDir, 'PG_VERSION'));
  let client = await PGlite.create(dataDir);
  if (fresh) {
    // Creating the cluster grows the WebAssembly memory to about 800 MiB, and WebAssembly memory
    // never shrinks. Reopening the new cluster in a fresh instance serves it in about half that.
    await client.close();
    client = await PGlite.create(dataDir);
  }
  return wrapPglite(client);
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
