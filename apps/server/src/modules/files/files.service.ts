import type { FileHandle } from 'node:fs/promises';
import { open, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  DOWNLOAD_NAME_MAX_LENGTH,
  DOWNLOAD_NAME_PATTERN,
  DOWNLOAD_ROLE_PREFIX,
  fileMessages,
} from '@dataplatform/contract';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { badRequest, forbidden, notFound, rangeNotSatisfiable } from '../../lib/errors.js';
import type { AuditService } from '../audit/audit.service.js';
import type { Actor, AuthContext } from '../../lib/auth-context.js';

/**
 * The folder downloads are served from, and the one place that decides it: with a tenant selected,
 * that tenant's own folder `FILES_DIR/tenants/{tenant_id}` (never the global one as a fallback);
 * otherwise `FILES_DIR`. The tenant id has already been resolved to an existing tenant (a UUID).
 */
export function filesRootFor(config: Pick<Config, 'filesDir'>, tenantId: string | null): string {
  return tenantId === null ? config.filesDir : path.join(config.filesDir, 'tenants', tenantId);
}

/** The extension a stored file may add to the requested name (`sales_report` → `sales_report.csv`). */
const STORED_EXTENSION = /^[A-Za-z0-9]{1,16}$/;

/** Read size per chunk: large enough for throughput, small enough that memory stays flat per download. */
const STREAM_CHUNK_BYTES = 512 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  tsv: 'text/tab-separated-values; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
  xml: 'application/xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  parquet: 'application/vnd.apache.parquet',
};

export function contentTypeOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  const extension = dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/**
 * One `bytes=` range of RFC 9110 against a file of `size` bytes. `undefined`: ignore the header and
 * send the whole file (absent, malformed, or several ranges); `'unsatisfiable'`: answer 416.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

export interface Download {
  status: 200 | 206;
  headers: Record<string, string>;
  body: Readable;
}

export function createFilesService(deps: {
  db: Database;
  config: Config;
  audit: AuditService;
  hasRole: (auth: AuthContext, roleName: string) => Promise<boolean>;
}) {
  const { db, config, audit, hasRole } = deps;

  function assertValidName(name: string) {
    if (name.length === 0 || name.length > DOWNLOAD_NAME_MAX_LENGTH || !DOWNLOAD_NAME_PATTERN.test(name)) {
      throw badRequest(fileMessages.invalidName);
    }
  }

  /**
   * The stored file for `name`, opened: `name` itself or `name.<ext>`, a regular file whose real
   * path (symlinks resolved) is inside the root. Anything else is "not found".
   */
  async function openStored(
    name: string,
    tenantId: string | null,
  ): Promise<{ handle: FileHandle; storedName: string; size: number; mtime: Date }> {
    let root: string;
    try {
      root = await realpath(filesRootFor(config, tenantId));
    } catch {
      throw notFound(fileMessages.notFound);
    }
    const entries = await readdir(root);
    const candidates = entries
      .filter(
        (entry) =>
          entry === name || (entry.startsWith(`${name}.`) && STORED_EXTENSION.test(entry.slice(name.length + 1))),
      )
      .sort((a, b) => (a === name ? -1 : b === name ? 1 : a.localeCompare(b)));
    for (const storedName of candidates) {
      let real: string;
      try {
        real = await realpath(path.join(root, storedName));
      } catch {
        continue;
      }
      if (!real.startsWith(root + path.sep)) continue;
      const handle = await open(real, 'r').catch(() => undefined);
      if (!handle) continue;
      const stat = await handle.stat();
      if (stat.isFile()) return { handle, storedName, size: stat.size, mtime: stat.mtime };
      await handle.close();
    }
    throw notFound(fileMessages.notFound);
  }

  return {
    /**
     * `GET /files/download/{name}`: 400 for a name that is not a plain file name, 403 without the
     * role `download_{name}` (superusers may download any), 404 when no such file exists. The file
     * streams from disk (constant memory) and honours one `Range`. With a tenant selected (already
     * checked: the caller belongs to it) the file comes from that tenant's folder only.
     */
    async download(
      actor: Actor,
      name: string,
      request: {
        tenantId: string | null;
        range: string | undefined;
        ifRange: string | undefined;
        countAsDownload: boolean;
      },
    ): Promise<Download> {
      assertValidName(name);
      if (!actor.user.isSuperuser && !(await hasRole(actor, `${DOWNLOAD_ROLE_PREFIX}${name}`))) {
        throw forbidden(fileMessages.notAuthorized);
      }
      const file = await openStored(name, request.tenantId);
      try {
        const etag = `W/"${file.size.toString(16)}-${Math.floor(file.mtime.getTime()).toString(16)}"`;
        const lastModified = file.mtime.toUTCString();
        const rangeApplies =
          request.ifRange === undefined || request.ifRange === etag || request.ifRange === lastModified;
        const range = rangeApplies ? parseRange(request.range, file.size) : undefined;
        if (range === 'unsatisfiable') {
          throw rangeNotSatisfiable(fileMessages.rangeNotSatisfiable, file.size);
        }
        const start = range?.start ?? 0;
        const end = range?.end ?? file.size - 1;
        const headers: Record<string, string> = {
          'content-type': contentTypeOf(file.storedName),
          'content-disposition': `attachment; filename="${file.storedName}"; filename*=UTF-8''${encodeURIComponent(file.storedName)}`,
          'content-length': String(Math.max(0, end - start + 1)),
          'accept-ranges': 'bytes',
          'cache-control': 'private, no-store',
          etag,
          'last-modified': lastModified,
        };
        if (range) headers['content-range'] = `bytes ${start}-${end}/${file.size}`;
        if (request.countAsDownload) {
          await db.transaction((tx) =>
            audit.record(tx, actor, {
              action: AUDIT_ACTIONS.fileDownload,
              targetType: AUDIT_TARGET_TYPES.file,
              targetId: file.storedName,
              before: null,
              after: {
                file: file.storedName,
                size: file.size,
                range: range ? `${start}-${end}` : null,
                tenant_id: request.tenantId,
              },
            }),
          );
        }
        if (file.size === 0) {
          await file.handle.close();
          return { status: 200, headers, body: Readable.from([]) };
        }
        // Closes the handle when it ends, fails, or the client goes away.
        return {
          status: range ? 206 : 200,
          headers,
          body: file.handle.createReadStream({ start, end, highWaterMark: STREAM_CHUNK_BYTES }),
        };
      } catch (error) {
        await file.handle.close();
        throw error;
      }
    },
  };
}

export type FilesService = ReturnType<typeof createFilesService>;
