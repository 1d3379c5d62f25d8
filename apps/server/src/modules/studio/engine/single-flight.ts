import { AppError } from '../../../lib/errors.js';

/** One piece of work in flight, shared by every identical request; it stops when all of them have gone. */
interface Flight<T> {
  promise: Promise<T>;
  waiters: number;
  controller: AbortController;
}

export interface SingleFlight<T> {
  /**
   * `work` for `key`, run once however many ask for it at the same time. Each asker may leave on its
   * own `signal` (answered `query_refused`); when the last one leaves, the work's signal aborts.
   */
  run(key: string, signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** How many keys are in flight (tests look at it). */
  readonly size: number;
}

const cancelled = () => new AppError('query_refused', 'The query was cancelled.');

export function createSingleFlight<T>(): SingleFlight<T> {
  const flights = new Map<string, Flight<T>>();

  function start(key: string, work: (signal: AbortSignal) => Promise<T>): Flight<T> {
    const controller = new AbortController();
    const created: Flight<T> = { promise: Promise.resolve() as Promise<T>, waiters: 0, controller };
    created.promise = work(controller.signal).finally(() => {
      if (flights.get(key) === created) flights.delete(key);
    });
    // Nobody may be waiting when it fails (all left): the rejection is handled here too.
    created.promise.catch(() => undefined);
    flights.set(key, created);
    return created;
  }

  return {
    get size() {
      return flights.size;
    },
    run(key, signal, work) {
      const current = flights.get(key) ?? start(key, work);
      current.waiters += 1;
      return new Promise<T>((resolve, reject) => {
        let done = false;
        /** Ends this asker's wait once, whichever of the result, the failure or its leaving comes first. */
        const settle = (): boolean => {
          if (done) return false;
          done = true;
          current.waiters -= 1;
          signal?.removeEventListener('abort', leave);
          return true;
        };
        function leave() {
          if (!settle()) return;
          if (current.waiters === 0) {
            if (flights.get(key) === current) flights.delete(key);
            current.controller.abort();
          }
          reject(cancelled());
        }
        if (signal?.aborted) {
          leave();
          return;
        }
        signal?.addEventListener('abort', leave, { once: true });
        current.promise.then(
          (value) => {
            if (settle()) resolve(value);
          },
          (error: unknown) => {
            if (settle()) reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      });
    },
  };
}
