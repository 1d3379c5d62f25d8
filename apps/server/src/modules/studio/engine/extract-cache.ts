import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { LRUCache } from 'lru-cache';

/** A local copy of an object, held (never evicted) until `release()`. */
export interface Lease {
  path: string;
  release(): void;
}

/** The file does not fit in the cache, even with every file no query holds evicted. */
export class CacheFull extends Error {
  override name = 'CacheFull';
}

interface Entry {
  bytes: number;
  leases: number;
  /** Deleted while held: removed once the last lease goes. */
  doomed: boolean;
}

export interface FileCacheOptions {
  dir: string;
  maxBytes: number;
  /**
   * Fetches `key` into `file`, calling `reserve(bytes)` once its size is known and before writing
   * (the cache makes room for it then, or throws CacheFull).
   */
  fetch(key: string, file: string, reserve: (bytes: number) => Promise<void>): Promise<void>;
}

/**
 * Each instance's local, read-only copies of extract files kept in an object store: fetched on
 * first use, at most `maxBytes` on disk, the least recently used file removed first. A file a
 * lease holds (an open extract database, so a running query) is out of the LRU and never removed;
 * when only held files are left, `reclaim` (the engine closing its idle databases) is asked once to
 * let some go. A copy is written beside the others and renamed into place, so a file present under
 * its name is whole.
 */
export function createFileCache(options: FileCacheOptions) {
  const { dir, maxBytes } = options;
  const partsDir = path.join(dir, '.parts');
  const held = new Map<string, Entry>();
  let heldBytes = 0;
  let reservedBytes = 0;
  const loading = new Map<string, Promise<void>>();
  let reclaim: (() => Promise<void>) | undefined;

  const fileOf = (key: string) => path.join(dir, ...key.split('/'));
  /**
   * Synchronous, so that a copy fetched again right after cannot be removed by a late unlink; a file
   * that cannot be removed is left (it only costs space), never an error in the query that evicted it.
   */
  const removeFile = (key: string) => {
    try {
      rmSync(fileOf(key), { force: true });
    } catch {
      /* left behind */
    }
  };

  const lru = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    sizeCalculation: (entry) => Math.max(1, entry.bytes),
    dispose: (_entry, key) => {
      if (!held.has(key)) removeFile(key);
    },
  });

  /** The files a previous run left (a restart keeps the cache warm), oldest first; half-written ones go. */
  const scan = async () => {
    await rm(partsDir, { recursive: true, force: true });
    await mkdir(partsDir, { recursive: true });
    const found: { key: string; bytes: number; mtime: number }[] = [];
    for (const name of await readdir(dir, { recursive: true })) {
      if (name.startsWith('.parts')) continue;
      const info = await stat(path.join(dir, name)).catch(() => undefined);
      if (!info?.isFile()) continue;
      found.push({ key: name.split(path.sep).join('/'), bytes: info.size, mtime: info.mtimeMs });
    }
    for (const file of found.sort((a, b) => a.mtime - b.mtime)) {
      lru.set(file.key, { bytes: file.bytes, leases: 0, doomed: false });
    }
  };
  let scanned: Promise<void> | undefined;
  /** Scanned on first use; a folder that failed is tried again by the next use. */
  function ready(): Promise<void> {
    scanned ??= scan().catch((error: unknown) => {
      scanned = undefined;
      throw error;
    });
    return scanned;
  }

  function used(): number {
    return lru.calculatedSize + heldBytes + reservedBytes;
  }

  /** Evicts unheld files, least recently used first, until `bytes` more fit; reserves them. */
  async function makeRoom(bytes: number): Promise<void> {
    if (bytes > maxBytes) {
      throw new CacheFull(`The file (${bytes} bytes) is larger than the cache (STUDIO_CACHE_MAX_BYTES=${maxBytes}).`);
    }
    let reclaimed = false;
    while (used() + bytes > maxBytes) {
      if (lru.size > 0) {
        lru.pop();
        continue;
      }
      if (!reclaimed && reclaim) {
        reclaimed = true;
        await reclaim();
        continue;
      }
      throw new CacheFull(
        `The cache is full of files that queries hold (${used()} of ${maxBytes} bytes, ${bytes} more needed).`,
      );
    }
    reservedBytes += bytes;
  }

  function lease(key: string, entry: Entry): Lease {
    entry.leases += 1;
    if (entry.leases === 1) {
      // Out of the LRU while held (held first: dispose leaves a held file alone).
      held.set(key, entry);
      heldBytes += entry.bytes;
      lru.delete(key);
    }
    let released = false;
    return {
      path: fileOf(key),
      release() {
        if (released) return;
        released = true;
        entry.leases -= 1;
        if (entry.leases > 0) return;
        held.delete(key);
        heldBytes -= entry.bytes;
        if (entry.doomed) removeFile(key);
        else lru.set(key, entry);
      },
    };
  }

  async function load(key: string): Promise<void> {
    const part = path.join(partsDir, `${randomUUID()}.part`);
    let reserved = 0;
    try {
      await options.fetch(key, part, async (bytes) => {
        await makeRoom(bytes);
        reserved = bytes;
      });
      const info = await stat(part);
      const target = fileOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(part, target);
      reservedBytes -= reserved;
      reserved = 0;
      lru.set(key, { bytes: info.size, leases: 0, doomed: false });
    } finally {
      reservedBytes -= reserved;
      await rm(part, { force: true });
    }
  }

  return {
    /** A local copy of `key`, fetched when absent (at most one fetch per key at a time). */
    async acquire(key: string): Promise<Lease> {
      await ready();
      for (;;) {
        const entry = held.get(key) ?? lru.get(key);
        if (entry) return lease(key, entry);
        let pending = loading.get(key);
        if (!pending) {
          pending = load(key).finally(() => loading.delete(key));
          loading.set(key, pending);
        }
        await pending;
      }
    },

    /** Takes in `file` (moved, not copied) as the copy of `key`: the instance that uploaded it needs no fetch. */
    async adopt(key: string, file: string): Promise<void> {
      await ready();
      const info = await stat(file);
      if (held.has(key) || lru.has(key)) return;
      try {
        await makeRoom(info.size);
      } catch {
        return; // not kept here: the first query fetches it once there is room
      }
      try {
        const target = fileOf(key);
        await mkdir(path.dirname(target), { recursive: true });
        await rename(file, target);
        lru.set(key, { bytes: info.size, leases: 0, doomed: false });
      } finally {
        reservedBytes -= info.size;
      }
    },

    /** Removes the copy of `key` now, or when its last lease goes. */
    drop(key: string): void {
      const entry = held.get(key);
      if (entry) entry.doomed = true;
      else lru.delete(key);
    },

    /** Drops the copies under `prefix` other than `keep` (an instance learning the extracts deleted elsewhere). */
    dropUnder(prefix: string, keep: ReadonlySet<string> = new Set()): void {
      for (const key of [...lru.keys(), ...held.keys()]) {
        if (key.startsWith(prefix) && !keep.has(key)) this.drop(key);
      }
    },

    /** Set by the engine: closes the extract databases no query uses, so that their files may go. */
    setReclaimer(fn: () => Promise<void>): void {
      reclaim = fn;
    },

    /** What the cache holds (tests and /readyz look at it). */
    stats() {
      return { files: lru.size + held.size, bytes: used(), held: held.size, maxBytes };
    },
  };
}
