import { DuckDBInstance, DuckDBTypeId, type DuckDBConnection } from '@duckdb/node-api';
import type { ParamValue } from './types.js';

export interface HardeningOptions {
  memoryLimit: string;
  threads: number;
  readOnly: boolean;
  /** Where DuckDB may spill (an in-memory database would use `.tmp` in the working directory). */
  tempDirectory?: string;
  /**
   * The server's own statements, run before access is locked (a tenant's extracts attached
   * read-only and their views): nothing a report sends ever runs here.
   */
  setup?: (connection: DuckDBConnection) => Promise<void>;
}

/**
 * A DuckDB database hardened before any report query reaches it: no file, network or extension
 * access (`enable_external_access=false`, no extension auto-loading), a memory and a thread limit,
 * then the configuration locked so no statement can change any of it back.
 */
export async function openHardened(file: string, options: HardeningOptions): Promise<DuckDBInstance> {
  const instance = await DuckDBInstance.create(file, {
    access_mode: options.readOnly ? 'READ_ONLY' : 'READ_WRITE',
    threads: String(options.threads),
    memory_limit: options.memoryLimit,
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    ...(options.tempDirectory === undefined ? {} : { temp_directory: options.tempDirectory }),
  });
  const connection = await instance.connect();
  try {
    if (options.setup) await options.setup(connection);
    await connection.run('SET enable_external_access = false');
    await connection.run('SET lock_configuration = true');
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
  connection.closeSync();
  return instance;
}

/** A parameter value with the DuckDB type it is bound as. */
export function duckdbValues(values: ParamValue[]): Record<string, ParamValue | bigint> {
  const record: Record<string, ParamValue | bigint> = {};
  values.forEach((value, index) => {
    record[`p${index}`] = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
  });
  return record;
}

const INTEGER_TYPES = new Set<DuckDBTypeId>([
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
]);

/** Rows as JSON-safe values: big integers as numbers when exact, decimals as numbers, ISO times. */
export function jsonRows(columnTypes: DuckDBTypeId[], rows: unknown[][]): unknown[][] {
  return rows.map((row) =>
    row.map((value, index) => {
      if (value === null) return null;
      const type = columnTypes[index];
      if (type !== undefined && INTEGER_TYPES.has(type) && typeof value === 'string') {
        const number = Number(value);
        return Number.isSafeInteger(number) ? number : value;
      }
      if (type === DuckDBTypeId.DECIMAL && typeof value === 'string') return Number(value);
      if ((type === DuckDBTypeId.TIMESTAMP || type === DuckDBTypeId.TIMESTAMP_TZ) && typeof value === 'string') {
        return value.replace(' ', 'T');
      }
      return value;
    }),
  );
}
