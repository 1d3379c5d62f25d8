import { Readable } from 'node:stream';
import { fileMessages } from '@dataplatform/contract';
import { rangeNotSatisfiable } from '../../lib/errors.js';
import type { StoredFile } from './files.service.js';

/*
 * The HTTP side of a download, in the route layer: content type, Content-Disposition, ETag and
 * Last-Modified, one `Range` (with `If-Range`), and the stream. The service decides who may have
 * which file; this decides how its bytes travel.
 *
 * Ours rather than @fastify/send's, for a reason: send opens a file by its path when it answers,
 * where a download streams the handle the service opened after its checks, once the download is
 * recorded (a file replaced or deleted in between is not what gets sent). What send would add is
 * its Range grammar, of which downloads take the one-range subset below (several ranges are
 * answered whole), and the content-disposition package leaves `filename*` out for an ASCII name,
 * which these answers always carry.
 */

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

function contentTypeOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  const extension = dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/**
 * One `bytes=` range of RFC 9110 against a file of `size` bytes. `undefined`: ignore the header and
 * send the whole file (absent, malformed, or several ranges); `'unsatisfiable'`: answer 416.
 */
function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
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

/** What to answer for a stored file: status, headers, the bytes sent, and the body. */
export interface Transfer {
  status: 200 | 206;
  headers: Record<string, string>;
  /** `start-end` of a partial answer, `null` for the whole file. */
  range: string | null;
  /** The bytes, read from the handle only once this is called (after the download is recorded). */
  stream(): Readable;
}

/**
 * Plans the answer for `file` given the request's `Range` and `If-Range` (a range applies only while
 * `If-Range` names the file's current ETag or date). A range past the end is a 416. Streams from
 * disk in constant memory; the stream closes the handle when it ends, fails or the client goes away.
 */
export function transferOf(
  file: StoredFile,
  request: { range: string | undefined; ifRange: string | undefined },
): Transfer {
  const etag = `W/"${file.size.toString(16)}-${Math.floor(file.mtime.getTime()).toString(16)}"`;
  const lastModified = file.mtime.toUTCString();
  const rangeApplies = request.ifRange === undefined || request.ifRange === etag || request.ifRange === lastModified;
  const range = rangeApplies ? parseRange(request.range, file.size) : undefined;
  if (range === 'unsatisfiable') throw rangeNotSatisfiable(fileMessages.rangeNotSatisfiable, file.size);
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
  return {
    status: range ? 206 : 200,
    headers,
    range: range ? `${start}-${end}` : null,
    // An empty file has no byte to read: createReadStream would refuse end = -1.
    stream: () =>
      file.size === 0
        ? Readable.from([])
        : file.handle.createReadStream({ start, end, highWaterMark: STREAM_CHUNK_BYTES }),
  };
}
