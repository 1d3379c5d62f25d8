import { performance } from 'node:perf_hooks';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import pg from 'pg';
import type { RunnerMessage } from '../protocol.js';
import { send, startTargetRuntime } from './target-runtime.js';

/**
 * The floor of the Studio section: the same SQL the reports run, straight on DuckDB
 * (`@duckdb/node-api`, the demo file opened read-only with the server's thread and memory limits)
 * and straight on the tenant's PostgreSQL database through `pg`, in a process of the same kind as
 * the server (tsx, the server's node flags). Each query is timed from the call until every row is
 * in JavaScript, as the engine reads them; nothing is cached between runs.
 */
interface DirectOptions {
  duckdbFile: string;
  duckdbThreads: number;
  duckdbMemoryLimit: string;
  postgresUrl: string;
}

const options = JSON.parse(process.argv[2] ?? '{}') as DirectOptions;

let duckdb: Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> | undefined;
// Opened on first use: the server builds the demo file on its first report run.
const openDuckdb = () =>
  (duckdb ??= (async () => {
    const instance = await DuckDBInstance.create(options.duckdbFile, {
      access_mode: 'READ_ONLY',
      threads: String(options.duckdbThreads),
      memory_limit: options.duckdbMemoryLimit,
    });
    return { instance, connection: await instance.connect() };
  })());
// One connection, like the engine's pool for one query at a time (its size does not matter here).
const postgres = new pg.Pool({ connectionString: options.postgresUrl, max: 2 });

async function query(engine: 'duckdb' | 'postgres', sql: string): Promise<{ ms: number; rows: unknown[][] }> {
  if (engine === 'duckdb') {
    const { connection } = await openDuckdb();
    const started = performance.now();
    const reader = await connection.runAndReadAll(sql);
    const rows = reader.getRowsJson() as unknown[][];
    return { ms: performance.now() - started, rows };
  }
  const started = performance.now();
  const result = await postgres.query<unknown[]>({ text: sql, rowMode: 'array' });
  return { ms: performance.now() - started, rows: result.rows };
}

startTargetRuntime({
  close: async () => {
    await postgres.end();
    const opened = await duckdb?.catch(() => undefined);
    opened?.connection.closeSync();
    opened?.instance.closeSync();
  },
});

// One query at a time, in the order asked.
let queue = Promise.resolve();
process.on('message', (message: RunnerMessage) => {
  if (message.type !== 'direct-query') return;
  queue = queue.then(async () => {
    try {
      const { ms, rows } = await query(message.engine, message.sql);
      await send({ type: 'direct-result', ms, rows });
    } catch (error) {
      await send({ type: 'direct-result', ms: 0, rows: [], error: String(error) });
    }
  });
});
await send({ type: 'ready', port: 0 });
