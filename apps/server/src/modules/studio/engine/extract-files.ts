import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import pLimit from 'p-limit';
import { describeError } from '../../../lib/errors.js';

/*
 * Where a tenant's extracts live and how an uploaded file becomes one: DuckDB's own reader
 * (`read_csv` / `read_parquet`) types the whole file, run by the server on a path it chose, into a
 * DuckDB file of its own holding the table `data`. Report SQL never reaches this code: it runs on
 * a hardened database per tenant that attaches these files read-only (engine.ts).
 */

export type ExtractFormat = 'csv' | 'parquet';

/** The table inside each extract's DuckDB file. */
export const EXTRACT_TABLE = 'data';

export function extractsDir(studioDir: string, tenantId: string): string {
  return path.join(studioDir, 'extracts', tenantId);
}

/** The DuckDB file of one extract. */
export function extractFile(studioDir: string, tenantId: string, extractId: string): string {
  return path.join(extractsDir(studioDir, tenantId), `${extractId}.duckdb`);
}

/** Removes a DuckDB file and the write-ahead log beside it, if any. */
export async function removeDuckdbFile(file: string): Promise<void> {
  await Promise.all([rm(file, { force: true }), rm(`${file}.wal`, { force: true })]);
}

/** A path inside a SQL string literal. */
export const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;

export interface LoadedExtract {
  rows: number;
  columns: { name: string; type: string }[];
}

/** Why DuckDB could not read a file, in the first lines of its message (no server paths). */
export class UnreadableExtract extends Error {
  override name = 'UnreadableExtract';
}

/** The reading ran past its time limit and was interrupted in DuckDB. */
export class ExtractTimedOut extends Error {
  override name = 'ExtractTimedOut';
}

/** The reading was interrupted in DuckDB because its upload's client went away. */
export class ExtractCancelled extends Error {
  override name = 'ExtractCancelled';
}

/** How long one file's reading may take, and what stops it sooner. */
interface LoadLimits {
  timeoutMs: number;
  /** Aborted when the client goes away: the reading stops (also while it waits for its turn). */
  signal?: AbortSignal | undefined;
}

export interface ExtractLoaderOptions {
  studioDir: string;
}

/**
 * What reading one upload may hold in memory, whatever its size: DuckDB spills the rest to its temp
 * folder. Measured on a 1 GB CSV (bench/results/2026-11-27-studio.md): the process grew by about 190 MiB with 96 MB and one
 * thread, 240 MiB with 128 MB, 490 MiB with the queries' 512 MB and two threads; 64 MB is too little
 * for the CSV reader's 30 MiB buffers. Reading is not faster with two threads (13-15 s either way).
 */
const LOADER_MEMORY_LIMIT = '96MB';
const LOADER_THREADS = 1;

/**
 * The server's loader: one in-memory DuckDB that only ever runs the statements below, on paths the
 * server made, with at most two files typed at a time (typing reads the whole file).
 */
export function createExtractLoader(options: ExtractLoaderOptions) {
  let loader: Promise<DuckDBInstance> | undefined;
  const limit = pLimit(2);

  function instance(): Promise<DuckDBInstance> {
    loader ??= (async () => {
      const tempDirectory = path.join(options.studioDir, 'tmp');
      await mkdir(tempDirectory, { recursive: true });
      return DuckDBInstance.create(':memory:', {
        threads: String(LOADER_THREADS),
        memory_limit: LOADER_MEMORY_LIMIT,
        temp_directory: tempDirectory,
        autoinstall_known_extensions: 'false',
        autoload_known_extensions: 'false',
      });
    })().catch((error: unknown) => {
      loader = undefined;
      throw error;
    });
    return loader;
  }

  async function load(
    source: string,
    format: ExtractFormat,
    target: string,
    limits: LoadLimits,
  ): Promise<LoadedExtract> {
    const { signal } = limits;
    if (signal?.aborted) throw new ExtractCancelled();
    const connection: DuckDBConnection = await (await instance()).connect();
    const alias = `load_${randomBytes(8).toString('hex')}`;
    let attached = false;
    // The time limit and the client's going away both interrupt the statement running; one
    // interrupted between two statements is caught by `stopped()` after each.
    let timedOut = false;
    const interrupt = () => connection.interrupt();
    const timer = setTimeout(() => {
      timedOut = true;
      interrupt();
    }, limits.timeoutMs);
    signal?.addEventListener('abort', interrupt, { once: true });
    const stopped = () => {
      if (timedOut) return new ExtractTimedOut();
      if (signal?.aborted) return new ExtractCancelled();
      return undefined;
    };
    const checked = async <T>(work: Promise<T>): Promise<T> => {
      let result: T;
      try {
        result = await work;
      } catch (error) {
        throw stopped() ?? error;
      }
      const stop = stopped();
      if (stop) throw stop;
      return result;
    };
    try {
      // Marked attached before a stop is looked for, so that the finally below detaches it.
      await checked(
        connection.run(`ATTACH ${sqlString(target)} AS ${alias}`).then(() => {
          attached = true;
        }),
      );
      const reader = format === 'csv' ? `read_csv(${sqlString(source)})` : `read_parquet(${sqlString(source)})`;
      try {
        await checked(connection.run(`CREATE TABLE ${alias}.main.${EXTRACT_TABLE} AS SELECT * FROM ${reader}`));
      } catch (error) {
        if (error instanceof ExtractTimedOut || error instanceof ExtractCancelled) throw error;
        const message = describeError(error);
        if (message.startsWith('Out of Memory')) {
          throw new UnreadableExtract(
            `The file needs more memory to read than one upload may use (${LOADER_MEMORY_LIMIT}): split it, or save it as Parquet with smaller row groups.`,
          );
        }
        throw new UnreadableExtract(readerMessage(message, source));
      }
      const counted = await checked(connection.runAndReadAll(`SELECT count(*) FROM ${alias}.main.${EXTRACT_TABLE}`));
      const described = await checked(
        connection.runAndReadAll(
          `SELECT column_name, data_type FROM duckdb_columns()
         WHERE database_name = '${alias}' AND schema_name = 'main' AND table_name = '${EXTRACT_TABLE}'
         ORDER BY column_index`,
        ),
      );
      const columns = (described.getRows() as [string, string][]).map(([name, type]) => ({ name, type }));
      if (columns.length === 0) throw new UnreadableExtract('The file has no columns.');
      return { rows: Number(counted.getRows()[0]?.[0] ?? 0), columns };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', interrupt);
      if (attached) {
        // An interrupt may still be pending on this connection: a fresh one detaches then (an attached
        // file is the instance's, whichever connection attached it).
        await connection.run(`DETACH ${alias}`).catch(async () => {
          const other = await (await instance()).connect();
          await other.run(`DETACH ${alias}`).catch(() => undefined);
          other.closeSync();
        });
      }
      connection.closeSync();
    }
  }

  return {
    /**
     * Types `source` (an uploaded file) with DuckDB's reader for `format` into the new DuckDB file
     * `target`, within `limits.timeoutMs` of its start. Throws UnreadableExtract when the reader
     * refuses the file, ExtractTimedOut past the time limit, ExtractCancelled once `limits.signal`
     * aborts; `target` is then removed.
     */
    async load(source: string, format: ExtractFormat, target: string, limits: LoadLimits): Promise<LoadedExtract> {
      return limit(async () => {
        try {
          return await load(source, format, target, limits);
        } catch (error) {
          await removeDuckdbFile(target);
          throw error;
        }
      });
    },

    /** Whether `name` is a reserved word of DuckDB's SQL (a table so named needs quotes). */
    async isReservedWord(name: string): Promise<boolean> {
      const connection = await (await instance()).connect();
      try {
        const reader = await connection.runAndReadAll(
          `SELECT count(*) FROM duckdb_keywords() WHERE keyword_name = $name AND keyword_category = 'reserved'`,
          { name },
        );
        return Number(reader.getRows()[0]?.[0] ?? 0) > 0;
      } finally {
        connection.closeSync();
      }
    },

    close(): void {
      const pending = loader;
      loader = undefined;
      void pending?.then((created) => created.closeSync()).catch(() => undefined);
    },
  };
}

export type ExtractLoader = ReturnType<typeof createExtractLoader>;

/** DuckDB's reason, its first lines, without the server's path to the file. */
function readerMessage(message: string, source: string): string {
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('LINE ') && !line.startsWith('^'));
  const kept: string[] = [];
  for (const line of lines) {
    if (line.startsWith('Possible fixes') || line.startsWith('Possible solutions')) break;
    kept.push(line);
    if (kept.length === 4) break;
  }
  const folder = path.dirname(source);
  return kept
    .join(' ')
    .replaceAll(source, 'the file')
    .replaceAll(folder, '…')
    .replace(/^[A-Za-z ]+Error: /, '')
    .slice(0, 600);
}
