import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';

/** `Algorithm.Argon2id`; the package exports it as an ambient const enum we cannot import. */
const ARGON2ID = 2;

/**
 * argon2id with OWASP's minimum parameters (19 MiB, 2 passes, 1 lane). @node-rs/argon2 runs on the
 * libuv thread pool, so hashing never blocks the event loop.
 */
const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * At most one hash per core at a time. More would not hash faster, and they would fill the libuv
 * thread pool that file I/O and DNS lookups also wait on.
 */
const hashingSlots = pLimit(Math.max(1, availableParallelism()));

export function hashPassword(password: string): Promise<string> {
  return hashingSlots(() => hash(password, ARGON2_OPTIONS));
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await hashingSlots(() => verify(hashed, password));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies against a throwaway hash: answering for an unknown e-mail takes as long as for a known
 * one, so response time does not reveal which accounts exist.
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
}
