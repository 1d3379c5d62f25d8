import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** The Redis tests count in: the local server unless TEST_REDIS_URL names another. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix (REDIS_KEY_PREFIX) no other test uses, so tests sharing one Redis never meet. */
export function uniqueRedisPrefix(): string {
  return `dp-test:${randomUUID()}:`;
}

/** A client on the test Redis without any prefix: it sees the keys as stored. */
export async function openRedisInspector(): Promise<Redis> {
  const client = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  return client;
}

/** Deletes every key under `prefix`: tests leave nothing behind in the machine's Redis. */
export async function deleteRedisKeys(client: Redis, prefix: string): Promise<void> {
  for await (const keys of client.scanStream({ match: `${prefix}*`, count: 1000 })) {
    if ((keys as string[]).length > 0) await client.del(...(keys as string[]));
  }
}
