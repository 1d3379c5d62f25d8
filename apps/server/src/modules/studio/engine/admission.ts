import PQueue from 'p-queue';
import { AppError } from '../../../lib/errors.js';
import { onceOnly } from './row-stream.js';

export interface AdmissionOptions {
  /** Queries one bucket (a tenant) may run at once. */
  slots: number;
  /** How long a query waits for a slot before a 429 (0: answer 429 at once when all are busy). */
  waitMs: number;
  /** How many queries may wait, per slot; beyond that a 429 at once. */
  waitingPerSlot: number;
}

export interface Admission {
  /**
   * Takes one of the bucket's slots, or waits its turn (first come, first served). The returned
   * function frees the slot, handing it to the next in line; calling it twice is harmless. Throws
   * `too_many_queries` (429 with Retry-After) past the wait or the queue's length, and
   * `query_refused` when `signal` aborts while waiting.
   */
  admit(bucket: string, signal?: AbortSignal): Promise<() => void>;
  /** How many run and wait in the bucket (tests look at it). */
  load(bucket: string): { running: number; waiting: number };
}

export const tooManyQueries = () =>
  new AppError('too_many_queries', 'Too many queries are running for this tenant; try again in a moment.', {
    'Retry-After': '1',
  });

const cancelled = () => new AppError('query_refused', 'The query was cancelled.');

/**
 * A query queue per tenant (p-queue, one per bucket while it has work): a report's blocks start
 * together, so a view with more blocks than slots waits a moment instead of failing. A slot is held
 * from `admit` until its release, by a task of the queue that ends then.
 */
export function createAdmission(options: AdmissionOptions): Admission {
  const queues = new Map<string, PQueue>();

  function queueOf(bucket: string): PQueue {
    const existing = queues.get(bucket);
    if (existing) return existing;
    const created = new PQueue({ concurrency: options.slots });
    created.on('idle', () => {
      if (queues.get(bucket) === created && created.size === 0 && created.pending === 0) queues.delete(bucket);
    });
    queues.set(bucket, created);
    return created;
  }

  return {
    load(bucket) {
      const queue = queues.get(bucket);
      return { running: queue?.pending ?? 0, waiting: queue?.size ?? 0 };
    },

    async admit(bucket, signal) {
      const queue = queueOf(bucket);
      const busy = queue.pending >= options.slots || queue.size > 0;
      if (busy && (options.waitMs === 0 || queue.size >= options.slots * options.waitingPerSlot)) {
        throw tooManyQueries();
      }
      if (busy && signal?.aborted) throw cancelled();
      // Aborted only while waiting (never once the slot is granted): the queue then drops the task.
      const waiting = new AbortController();
      const timer = busy ? setTimeout(() => waiting.abort(tooManyQueries()), options.waitMs) : undefined;
      const onAbort = () => waiting.abort(cancelled());
      const stopWaiting = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      if (busy) signal?.addEventListener('abort', onAbort, { once: true });
      let free!: () => void;
      const held = new Promise<void>((resolve) => (free = resolve));
      try {
        await new Promise<void>((granted, refused) => {
          queue
            .add(
              () => {
                stopWaiting();
                granted();
                return held;
              },
              { signal: waiting.signal },
            )
            .catch(() => refused(waiting.signal.reason instanceof AppError ? waiting.signal.reason : cancelled()));
        });
      } finally {
        stopWaiting();
      }
      return onceOnly(free);
    },
  };
}
