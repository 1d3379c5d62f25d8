import { createHash } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, copyFile, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { StudioConfig } from '../../../config.js';
import { describeError } from '../../../lib/errors.js';
import { createFileCache, type Lease } from './extract-cache.js';

/*
 * Where extract files live (STUDIO_STORAGE_URL, docs/decisions/060-extract-object-storage.md): a
 * folder (the data folder's by default, or a shared volume), or an S3-compatible object store. Each
 * file is an object named `{tenant}/{extract id}.{sha256}.duckdb`: written once, never changed, so a
 * copy an instance keeps is never stale, and a copy fetched is checked against its name.
 */

/** The store cannot be reached, refuses us, or lacks the object: the caller answers 503 source_unavailable. */
export class StorageUnavailable extends Error {
  override name = 'StorageUnavailable';
}

/** What /readyz?details=1 says of the store. */
export interface StorageStatus {
  kind: 'folder' | 's3';
  status: 'ok' | 'unavailable';
  /** The last failure's cause while it is the latest outcome (no secrets: S3's own error names and messages). */
  last_error?: string;
  last_error_at?: string;
  cache?: { files: number; bytes: number; max_bytes: number };
}

export interface ExtractStorage {
  kind: 'folder' | 's3';
  /**
   * Puts the finished file `file` in the store as `key`; the file is moved (it may be gone after).
   * Throws StorageUnavailable; an object half-written is not left behind.
   */
  put(key: string, file: string, signal?: AbortSignal): Promise<void>;
  /** A local path to read `key` from, kept until the lease is released. */
  open(key: string): Promise<Lease>;
  /** Removes the object (and any local copy). */
  remove(key: string): Promise<void>;
  /** Removes every object of a tenant. */
  removeTenant(tenantId: string): Promise<void>;
  /** Drops local copies of the tenant's objects other than `keep` (extracts deleted through another instance). */
  forgetOthers(tenantId: string, keep: ReadonlySet<string>): void;
  /** Lets the engine close idle extract databases when the cache needs their files' room. */
  setReclaimer(fn: () => Promise<void>): void;
  status(): Promise<StorageStatus>;
  close(): void;
}

/** The object key of an extract's file; `sha256` null for one stored before keys carried it. */
export function extractKey(tenantId: string, extractId: string, sha256: string | null): string {
  return sha256 === null ? `${tenantId}/${extractId}.duckdb` : `${tenantId}/${extractId}.${sha256}.duckdb`;
}

/** The SHA-256 a key names, if it names one. */
function shaOfKey(key: string): string | undefined {
  return /\.([0-9a-f]{64})\.duckdb$/.exec(key)?.[1];
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** A failure's cause, one line: the S3 error's name and message, or the system error. */
function causeOf(error: unknown): string {
  const name = (error as { name?: unknown }).name;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const text = describeError(error).split('\n')[0] ?? '';
  const named = typeof name === 'string' && name !== 'Error' && !text.startsWith(name) ? `${name}: ${text}` : text;
  // A HEAD's error has no body to name it: its status says what it was.
  return status === undefined ? named : `${named} (HTTP ${status})`;
}

/** Remembers the latest outcome for /readyz, and turns a failure into StorageUnavailable. */
function createHealth(log: (cause: string, what: string) => void) {
  let lastError: { cause: string; at: Date } | undefined;
  return {
    ok() {
      lastError = undefined;
    },
    fail(error: unknown, what: string): StorageUnavailable {
      if (error instanceof StorageUnavailable) return error;
      const cause = causeOf(error);
      lastError = { cause, at: new Date() };
      log(cause, what);
      return new StorageUnavailable(`${what}: ${cause}`);
    },
    report(): Pick<StorageStatus, 'last_error' | 'last_error_at'> {
      return lastError ? { last_error: lastError.cause, last_error_at: lastError.at.toISOString() } : {};
    },
    /** A failed check: the last operation's cause when there is one (it says more), else the check's. */
    unavailable(error: unknown): Pick<StorageStatus, 'status' | 'last_error' | 'last_error_at'> {
      return {
        status: 'unavailable',
        ...(lastError
          ? { last_error: lastError.cause, last_error_at: lastError.at.toISOString() }
          : { last_error: causeOf(error), last_error_at: new Date().toISOString() }),
      };
    },
  };
}

export interface StorageDeps {
  config: StudioConfig;
  /** Logs a store failure (the cause has no secrets). */
  onFailure: (cause: string, what: string) => void;
}

export function createExtractStorage(deps: StorageDeps): ExtractStorage {
  const { storage } = deps.config;
  if (storage.kind === 's3') return createS3Storage(deps, storage);
  return createFolderStorage(deps, storage.dir ?? path.join(deps.config.dir, 'extracts'));
}

/** Files in a folder, read where they lie (no copy): today's layout, or a volume every instance mounts. */
function createFolderStorage(deps: StorageDeps, root: string): ExtractStorage {
  const health = createHealth(deps.onFailure);
  const fileOf = (key: string) => path.join(root, ...key.split('/'));
  return {
    kind: 'folder',
    async put(key, file) {
      const target = fileOf(key);
      try {
        await mkdir(path.dirname(target), { recursive: true });
        try {
          await rename(file, target);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
          // Another file system (a shared volume): copied beside the target, then renamed into place.
          const part = `${target}.part`;
          try {
            await copyFile(file, part);
            await rename(part, target);
          } finally {
            await rm(part, { force: true });
          }
        }
        health.ok();
      } catch (error) {
        await rm(target, { force: true }).catch(() => undefined);
        throw health.fail(error, 'the extract file could not be stored');
      }
    },
    async open(key) {
      const file = fileOf(key);
      try {
        await access(file, constants.R_OK);
        health.ok();
      } catch (error) {
        throw health.fail(error, 'an extract file could not be read');
      }
      return { path: file, release: () => undefined };
    },
    async remove(key) {
      const file = fileOf(key);
      await Promise.all([rm(file, { force: true }), rm(`${file}.wal`, { force: true })]);
    },
    async removeTenant(tenantId) {
      await rm(path.join(root, tenantId), { recursive: true, force: true });
    },
    forgetOthers() {},
    setReclaimer() {},
    async status() {
      try {
        await mkdir(root, { recursive: true });
        await access(root, constants.R_OK | constants.W_OK);
        return { kind: 'folder', status: 'ok', ...health.report() };
      } catch (error) {
        return { kind: 'folder', ...health.unavailable(error) };
      }
    },
    close() {},
  };
}

/**
 * Parts of a multipart upload: 8 MiB, 4 at a time, so an upload holds about 32 MiB whatever its size
 * (S3's smallest part is 5 MiB; 10 000 parts of 8 MiB allow 80 GB).
 */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_AT_ONCE = 4;
/** How long /readyz waits for the store to answer. */
const PROBE_TIMEOUT_MS = 2_000;

/** Checks a fetched copy against the SHA-256 its key names, as it is written. */
class Verifier extends Transform {
  readonly hash = createHash('sha256');
  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null, data?: Buffer) => void,
  ) {
    this.hash.update(chunk);
    callback(null, chunk);
  }
}

/**
 * An S3-compatible store through the AWS SDK, with each instance's local cache of the files its
 * queries read (STUDIO_CACHE_MAX_BYTES, extract-cache.ts). The SDK finds credentials its usual way
 * (AWS_ACCESS_KEY_ID…, a profile, a role); none is ever logged.
 */
function createS3Storage(
  deps: StorageDeps,
  settings: Extract<StudioConfig['storage'], { kind: 's3' }>,
): ExtractStorage {
  const health = createHealth(deps.onFailure);
  const client = new S3Client({
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
    region: settings.region ?? process.env.AWS_REGION ?? 'us-east-1',
    forcePathStyle: settings.forcePathStyle,
    // Checksums only where S3 requires them: several S3-compatible stores refuse the newer trailers,
    // and every copy is checked against the SHA-256 in its name anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const bucket = settings.bucket;
  const objectKey = (key: string) => (settings.prefix === '' ? key : `${settings.prefix}/${key}`);

  const cache = createFileCache({
    dir: path.join(deps.config.dir, 'cache'),
    maxBytes: deps.config.cacheMaxBytes,
    async fetch(key, file, reserve) {
      let body: Readable;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        body = object.Body as Readable;
        await reserve(object.ContentLength ?? 0).catch((error: unknown) => {
          body.destroy();
          throw error;
        });
        const verifier = new Verifier();
        await pipeline(body, verifier, createWriteStream(file));
        const expected = shaOfKey(key);
        if (expected !== undefined && verifier.hash.digest('hex') !== expected) {
          throw new Error(`the object ${objectKey(key)} does not hold what its name says (SHA-256 differs)`);
        }
        health.ok();
      } catch (error) {
        throw health.fail(error, 'an extract file could not be fetched into the local cache');
      }
    },
  });

  return {
    kind: 's3',
    async put(key, file, signal) {
      const upload = new Upload({
        client,
        params: {
          Bucket: bucket,
          Key: objectKey(key),
          Body: createReadStream(file),
          ContentType: 'application/octet-stream',
        },
        partSize: PART_BYTES,
        queueSize: PARTS_AT_ONCE,
        // A failed multipart upload is aborted, so no part is left to pay for.
        leavePartsOnError: false,
      });
      const abort = () => void upload.abort().catch(() => undefined);
      signal?.addEventListener('abort', abort, { once: true });
      try {
        await upload.done();
        health.ok();
      } catch (error) {
        // A single-part upload that failed after S3 took it: nothing must stay.
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) })).catch(() => undefined);
        throw health.fail(error, 'the extract file could not be stored in the object store');
      } finally {
        signal?.removeEventListener('abort', abort);
      }
      // The uploading instance keeps its copy: its first query needs no fetch.
      await cache.adopt(key, file).catch(() => undefined);
    },
    async open(key) {
      try {
        return await cache.acquire(key);
      } catch (error) {
        // The fetch's own failures are already told; this adds the cache folder's (not writable, full).
        throw health.fail(error, 'the local cache of extract files failed');
      }
    },
    async remove(key) {
      cache.drop(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        health.ok();
      } catch (error) {
        throw health.fail(error, 'an extract object could not be deleted');
      }
    },
    async removeTenant(tenantId) {
      cache.dropUnder(`${tenantId}/`);
      try {
        let token: string | undefined;
        do {
          const page = await client.send(
            new ListObjectsV2Command({ Bucket: bucket, Prefix: objectKey(`${tenantId}/`), ContinuationToken: token }),
          );
          const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
          if (keys.length > 0) {
            await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
          }
          token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
        } while (token !== undefined);
        health.ok();
      } catch (error) {
        throw health.fail(error, "a deleted tenant's extract objects could not be deleted");
      }
    },
    forgetOthers(tenantId, keep) {
      cache.dropUnder(`${tenantId}/`, keep);
    },
    setReclaimer(fn) {
      cache.setReclaimer(fn);
    },
    async status() {
      const stats = cache.stats();
      const base = {
        kind: 's3' as const,
        cache: { files: stats.files, bytes: stats.bytes, max_bytes: stats.maxBytes },
      };
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }), {
          abortSignal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
        });
        return { ...base, status: 'ok', ...health.report() };
      } catch (error) {
        return { ...base, ...health.unavailable(error) };
      }
    },
    close() {
      client.destroy();
    },
  };
}
