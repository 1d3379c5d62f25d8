import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's built-in account: the SDK signs with it like with any AWS key. */
const ACCESS_KEY = 'S3RVER';
const BUCKET = 'extracts';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The settings an app needs to keep its extracts under `prefix` in this store. */
  env(prefix: string): Record<string, string>;
  /** The keys under `prefix`, as the store lists them. */
  keys(prefix: string): Promise<string[]>;
  /** Deletes an object behind the product's back. */
  deleteObject(key: string): Promise<void>;
  /** The store goes away: its port refuses connections, and requests in flight are cut. */
  stop(): Promise<void>;
  /** Back on the same port, with the same objects. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server on loopback (s3rver, objects in a folder of its own) with one bucket,
 * for the tests of extracts in an object store (decision 060). The app's AWS SDK finds the
 * credentials in the environment, as it would in production.
 */
export async function startS3Server(): Promise<TestS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  process.env.AWS_ACCESS_KEY_ID = ACCESS_KEY;
  process.env.AWS_SECRET_ACCESS_KEY = ACCESS_KEY;
  let port = 0;
  let server: S3rver | undefined;
  async function start() {
    const instance = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const address = await instance.run();
    port = address.port;
    server = instance;
  }
  async function stop() {
    const running = server;
    server = undefined;
    if (!running) return;
    // close() alone waits for the SDK's kept-alive connections; a store that goes away cuts them.
    const http = (running as unknown as { httpServer: Server }).httpServer;
    const closed = new Promise<void>((resolve) => http.close(() => resolve()));
    http.closeAllConnections();
    await closed;
  }
  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
  });
  return {
    endpoint,
    bucket: BUCKET,
    env: (prefix) => ({
      STUDIO_STORAGE_URL: `s3://${BUCKET}/${prefix}`,
      STUDIO_S3_ENDPOINT: endpoint,
      STUDIO_S3_FORCE_PATH_STYLE: 'true',
    }),
    async keys(prefix) {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
      return (listed.Contents ?? []).map((object) => object.Key ?? '').sort();
    },
    async deleteObject(key) {
      await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key }));
    },
    stop,
    start,
    async close() {
      client.destroy();
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** A prefix of a test's own, so that test files can share a store. */
export function s3Prefix(): string {
  return `test-${randomBytes(6).toString('hex')}`;
}
