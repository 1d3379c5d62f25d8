import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  STUDIO_EXTRACT_CONTENT_TYPES,
  studioExtractMessages,
  type StudioExtract,
  type StudioExtracts,
} from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { StudioConfig } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Actor } from '../../lib/auth-context.js';
import { AppError, badRequest, conflict, describeError, fieldError, isUniqueViolation } from '../../lib/errors.js';
import type { AuditService } from '../audit/audit.service.js';
import type { ExtractCatalog, StudioScope } from './engine/engine.js';
import {
  ExtractCancelled,
  ExtractTimedOut,
  removeDuckdbFile,
  UnreadableExtract,
  type ExtractFormat,
  type ExtractLoader,
} from './engine/extract-files.js';
import { extractKey, sha256Of, StorageUnavailable, type ExtractStorage } from './engine/extract-storage.js';
import {
  deleteExtract,
  findExtractByName,
  insertExtract,
  listExtracts,
  type ExtractRow,
} from './extracts.repository.js';

/** What an upload brings: the table name, the declared type, the announced length and the bytes. */
export interface ExtractUpload {
  name: string;
  contentType: string | undefined;
  contentLength: string | undefined;
  body: Readable | undefined;
  /** Aborted when the client goes away: the reading of the file stops in DuckDB. */
  signal?: AbortSignal | undefined;
}

const invalid = (detail: string) => new AppError('extract_invalid', detail);
const unavailable = () =>
  new AppError('source_unavailable', "The tenant's extracts are not available now.", { 'Retry-After': '5' });
const notFound = () => new AppError('extract_not_found', studioExtractMessages.notFound);

/** The format a Content-Type names (parameters such as `charset` aside), or undefined. */
function formatOf(contentType: string | undefined): ExtractFormat | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type === STUDIO_EXTRACT_CONTENT_TYPES.csv) return 'csv';
  if (type === STUDIO_EXTRACT_CONTENT_TYPES.parquet) return 'parquet';
  return undefined;
}

export function toStudioExtract(row: ExtractRow): StudioExtract {
  return {
    id: row.id,
    name: row.name,
    source_id: 'extract',
    format: row.format,
    tables: [{ name: row.name, columns: row.columns }],
    bytes: row.bytes,
    rows: row.rows,
    created_at: row.createdAt.toISOString(),
  };
}

function snapshot(row: ExtractRow) {
  return { tenant_id: row.tenantId, name: row.name, format: row.format, bytes: row.bytes, rows: row.rows };
}

class TooLarge extends Error {}

/** Counts the bytes going through and fails past `max`; keeps the first four to tell a Parquet file. */
class ByteCounter extends Transform {
  bytes = 0;
  head = Buffer.alloc(0);
  constructor(private readonly max: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.max) {
      callback(new TooLarge());
      return;
    }
    if (this.head.length < 4) this.head = Buffer.concat([this.head, chunk.subarray(0, 4 - this.head.length)]);
    callback(null, chunk);
  }
}

/** Where a tenant's uploads are received and read on this instance, whatever the store. */
export function uploadsDir(studioDir: string, tenantId: string): string {
  return path.join(studioDir, 'uploads', tenantId);
}

/** The key of a row's file in the store. */
export function keyOf(row: Pick<ExtractRow, 'tenantId' | 'id' | 'sha256'>): string {
  return extractKey(row.tenantId, row.id, row.sha256);
}

/**
 * Studio extracts (STUDIO-SOURCE-*): a tenant's CSV and Parquet files, each typed by DuckDB into a
 * table of the tenant's `extract` source. An upload is streamed to a file of its own (never held
 * in memory), cut off past STUDIO_EXTRACT_MAX_BYTES, typed whole by DuckDB's reader into a DuckDB
 * file, put in the store (STUDIO_STORAGE_URL) under its SHA-256, and only then recorded; whatever
 * fails leaves no file, no object and no row behind. The reading is stopped in DuckDB past
 * STUDIO_EXTRACT_CONVERT_TIMEOUT_SECONDS (`extract_timeout`) or when the client goes away. A store
 * that fails is a 503 `source_unavailable`. Another tenant's extract is a 404.
 */
export function createExtractsService(deps: {
  db: Database;
  audit: AuditService;
  config: StudioConfig;
  loader: ExtractLoader;
  storage: ExtractStorage;
  log: FastifyBaseLogger;
}) {
  const { db, audit, config, loader, storage, log } = deps;
  const tooLarge = () => new AppError('extract_too_large', studioExtractMessages.tooLarge(config.extractMaxBytes));

  function tenantOf(scope: StudioScope): string {
    if (scope.tenantId === null) throw badRequest(studioExtractMessages.noTenant);
    return scope.tenantId;
  }

  /** Streams the body into `file`, at most extractMaxBytes; the body is never destroyed (the 413 must go out). */
  async function receive(body: Readable, file: string): Promise<{ bytes: number; head: Buffer }> {
    const counter = new ByteCounter(config.extractMaxBytes);
    const forwardError = (error: Error) => counter.destroy(error);
    body.once('error', forwardError);
    body.pipe(counter);
    try {
      await pipeline(counter, createWriteStream(file, { flags: 'wx' }));
    } finally {
      body.unpipe(counter);
      body.off('error', forwardError);
    }
    return { bytes: counter.bytes, head: counter.head };
  }

  return {
    /** The extract catalog the engine builds each tenant's DuckDB from. */
    catalog: {
      async list(tenantId) {
        const rows = await listExtracts(db, tenantId);
        return rows.map((row) => ({ id: row.id, name: row.name, columns: row.columns, key: keyOf(row) }));
      },
    } satisfies ExtractCatalog,

    async list(scope: StudioScope): Promise<StudioExtracts> {
      const tenantId = tenantOf(scope);
      const rows = await listExtracts(db, tenantId);
      return { data: rows.map(toStudioExtract), count: rows.length };
    },

    async upload(actor: Actor, scope: StudioScope, upload: ExtractUpload): Promise<StudioExtract> {
      const tenantId = tenantOf(scope);
      const format = formatOf(upload.contentType);
      if (!format) throw invalid(studioExtractMessages.contentType);
      if (await loader.isReservedWord(upload.name)) {
        throw fieldError(['query', 'name'], studioExtractMessages.nameReserved);
      }
      // Before a byte is read: a taken name or an announced length past the limit.
      if (await findExtractByName(db, tenantId, upload.name)) {
        throw conflict(studioExtractMessages.nameTaken, 'extract_name_taken');
      }
      const announced = upload.contentLength === undefined ? Number.NaN : Number(upload.contentLength);
      if (announced > config.extractMaxBytes) throw tooLarge();
      if (!upload.body || announced === 0) throw invalid(studioExtractMessages.empty);

      const id = randomUUID();
      // Uploads in progress, on this instance's disk whatever the store.
      const dir = uploadsDir(config.dir, tenantId);
      await mkdir(dir, { recursive: true });
      const part = path.join(dir, `${id}.part`);
      const target = path.join(dir, `${id}.duckdb`);
      /** The object put in the store, removed again unless its row is committed. */
      let stored: string | undefined;
      let kept = false;
      try {
        let received: { bytes: number; head: Buffer };
        try {
          received = await receive(upload.body, part);
        } catch (error) {
          if (error instanceof TooLarge) throw tooLarge();
          throw badRequest('The upload did not arrive whole');
        }
        if (received.bytes === 0) throw invalid(studioExtractMessages.empty);
        if (format === 'csv' && received.head.toString('latin1') === 'PAR1') {
          throw invalid(`This is a Parquet file: send it with Content-Type ${STUDIO_EXTRACT_CONTENT_TYPES.parquet}`);
        }
        let loaded;
        try {
          loaded = await loader.load(part, format, target, {
            timeoutMs: config.extractConvertTimeoutMs,
            signal: upload.signal,
          });
        } catch (error) {
          if (error instanceof UnreadableExtract) {
            throw invalid(`The file could not be read as ${format === 'csv' ? 'CSV' : 'Parquet'}: ${error.message}`);
          }
          if (error instanceof ExtractTimedOut) {
            throw new AppError(
              'extract_timeout',
              studioExtractMessages.timedOut(config.extractConvertTimeoutMs / 1000),
            );
          }
          if (error instanceof ExtractCancelled) throw badRequest(studioExtractMessages.cancelled);
          throw error;
        }
        // A client gone between the reading and the record: nothing is kept.
        if (upload.signal?.aborted) throw badRequest(studioExtractMessages.cancelled);
        // Content-addressed: the object's name says what it holds, so no copy of it is ever stale.
        const sha256 = await sha256Of(target);
        const key = extractKey(tenantId, id, sha256);
        try {
          await storage.put(key, target, upload.signal);
        } catch (error) {
          if (upload.signal?.aborted) throw badRequest(studioExtractMessages.cancelled);
          if (error instanceof StorageUnavailable) throw unavailable();
          throw error;
        }
        stored = key;
        if (upload.signal?.aborted) throw badRequest(studioExtractMessages.cancelled);
        const row = await db.transaction(async (tx) => {
          const inserted = await insertExtract(tx, {
            id,
            tenantId,
            name: upload.name,
            format,
            bytes: received.bytes,
            rows: loaded.rows,
            columns: loaded.columns,
            sha256,
            createdBy: actor.user.id,
          });
          await audit.record(tx, actor, {
            action: AUDIT_ACTIONS.extractCreate,
            targetType: AUDIT_TARGET_TYPES.extract,
            targetId: inserted.id,
            before: null,
            after: snapshot(inserted),
          });
          return inserted;
        });
        kept = true;
        return toStudioExtract(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(studioExtractMessages.nameTaken, 'extract_name_taken');
        throw error;
      } finally {
        await rm(part, { force: true }).catch((error: unknown) =>
          log.warn({ err: describeError(error) }, 'an extract upload file could not be removed'),
        );
        await removeDuckdbFile(target);
        if (!kept && stored !== undefined) {
          await storage
            .remove(stored)
            .catch((error: unknown) =>
              log.warn(
                { err: describeError(error), key: stored },
                'an extract object not recorded could not be removed',
              ),
            );
        }
      }
    },

    /**
     * Removes the folder of a deleted tenant's extract files (their rows went with the tenant). A
     * failure is logged, not thrown: the deletion has committed and its answer must go out.
     */
    async removeTenantFiles(tenantId: string): Promise<void> {
      await rm(uploadsDir(config.dir, tenantId), { recursive: true, force: true }).catch(() => undefined);
      await storage
        .removeTenant(tenantId)
        .catch((error: unknown) =>
          log.warn({ tenantId, err: describeError(error) }, "a deleted tenant's extract files could not be removed"),
        );
    },

    /** Removes the row (with its audit entry), then the object; another tenant's id is a 404. */
    async remove(actor: Actor, scope: StudioScope, extractId: string): Promise<void> {
      const tenantId = tenantOf(scope);
      const row = await db.transaction(async (tx) => {
        const deleted = await deleteExtract(tx, tenantId, extractId);
        if (!deleted) throw notFound();
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.extractDelete,
          targetType: AUDIT_TARGET_TYPES.extract,
          targetId: deleted.id,
          before: snapshot(deleted),
          after: null,
        });
        return deleted;
      });
      // The row is gone, so no query opens the object again; one left by a failure is only space.
      await storage
        .remove(keyOf(row))
        .catch((error: unknown) =>
          log.warn({ err: describeError(error), extractId }, 'a deleted extract file could not be removed'),
        );
    },
  };
}

export type ExtractsService = ReturnType<typeof createExtractsService>;
