import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { StudioConfig } from '../../../config.js';
import type { Admission } from './admission.js';
import { jsonRows } from './duckdb-database.js';
import { describeDuckdb, duckdbFailure, type createDuckdbPreparer, type PreparedDuckdb } from './duckdb-queries.js';
import type { InstancePool } from './instances.js';
import { streamPostgres } from './postgres-source.js';
import { alsoFreeing, streamRows, tooLargeToExport } from './row-stream.js';
import { pageOrderBy, wrapResult } from './sql-text.js';
import { preparePostgres, type TenantDatabase } from './tenant-database.js';
import type { ExportRequest, RowStream } from './types.js';
import type { WorkUnderWay } from './work-under-way.js';

export interface ExportDeps {
  settings: Pick<StudioConfig, 'exportMaxRows' | 'exportTimeoutMs'>;
  admission: Admission;
  instances: InstancePool;
  tenant: TenantDatabase;
  prepareDuckdb: ReturnType<typeof createDuckdbPreparer>;
  work: WorkUnderWay;
}

/**
 * A table block's whole result for a download, on any source: guarded as a run is, in one of the
 * tenant's query slots until the stream ends, counted first (over `exportMaxRows` is
 * `result_too_large` before any row), then streamed chunk by chunk, never held whole nor cached.
 */
export function createExport(deps: ExportDeps) {
  const { settings, admission } = deps;

  /** A table's whole result on DuckDB: counted, then streamed in the engine's chunks. */
  async function exportDuckdb(
    instance: DuckDBInstance,
    prepared: PreparedDuckdb,
    request: ExportRequest,
  ): Promise<RowStream> {
    const release = await admission.admit(request.scope.tenantId ?? 'no-tenant', request.signal);
    let connection: DuckDBConnection;
    try {
      connection = await instance.connect();
    } catch (error) {
      release();
      throw duckdbFailure(error, null);
    }
    // The chunk being fetched, if any: the download's client can leave (and `close()` come) while a
    // fetch runs on a worker thread, and the connection must outlive it (see bothSettled).
    let fetching: Promise<unknown> = Promise.resolve();
    let endWork = () => undefined as void;
    const interrupt = () => connection.interrupt();
    return streamRows({
      timeoutMs: settings.exportTimeoutMs,
      signal: request.signal,
      interrupt,
      release: () => {
        interrupt();
        void fetching.then(() => {
          connection.closeSync();
          release();
          endWork();
        });
      },
      failure: (error, ending) => duckdbFailure(error, ending.timedOut ? settings.exportTimeoutMs : null),
      // The engine's close() closes a download no one has finished or closed, as its reader would.
      started: (close) => (endWork = deps.work.start(close)),
      async open() {
        const wrapped = wrapResult(prepared.text);
        const { columns, typeIds } = await describeDuckdb(connection, wrapped, prepared.values);
        const countReader = await connection.runAndReadAll(`SELECT count(*) FROM ${wrapped}`, prepared.values);
        const count = Number(countReader.getRows()[0]?.[0] ?? 0);
        if (count > settings.exportMaxRows) throw tooLargeToExport(count, settings.exportMaxRows);
        const orderBy = pageOrderBy(
          columns.map((column) => column.name),
          request.sort ?? [],
        );
        const result = await connection.stream(`SELECT * FROM ${wrapped}${orderBy}`, prepared.values);
        const pages = result.yieldRowsJson();
        return {
          columns,
          count,
          async next() {
            const next = pages.next();
            fetching = next.catch(() => undefined);
            const page = await next;
            return page.done === true ? undefined : jsonRows(typeIds, page.value);
          },
        };
      },
    });
  }

  /** The tenant's own database: a cursor in a READ ONLY transaction (postgres-source.ts). */
  async function exportTenant(request: ExportRequest): Promise<RowStream> {
    const { tenantId } = deps.tenant.target(request.scope);
    const prepared = await preparePostgres(request);
    const release = await admission.admit(tenantId, request.signal);
    try {
      // The pool's client is held until the stream ends or closes; `use` only lends the pool.
      const stream = await deps.tenant.use(request.scope, (pool) =>
        streamPostgres(pool, {
          ...prepared,
          sort: request.sort ?? [],
          maxRows: settings.exportMaxRows,
          timeoutMs: settings.exportTimeoutMs,
          signal: request.signal ?? new AbortController().signal,
        }),
      );
      return alsoFreeing(stream, release);
    } catch (error) {
      release();
      throw error;
    }
  }

  return {
    async exportRows(request: ExportRequest): Promise<RowStream> {
      if (request.source === 'tenant') return exportTenant(request);
      const source = await deps.instances.source(request);
      try {
        const prepared = await deps.prepareDuckdb(source.instance, request, source.tables);
        // The database stays open until the download ends, even if a new extract retires it meanwhile.
        const unhold = source.hold();
        try {
          const stream = await exportDuckdb(source.instance, prepared, request);
          return alsoFreeing(stream, unhold);
        } catch (error) {
          unhold();
          throw error;
        }
      } finally {
        source.release();
      }
    },
  };
}
