/**
 * The DuckDB work under way, each with what stops it, so that the engine's close() can stop it all
 * and wait for its end before it closes the databases (see bothSettled in duckdb-queries.ts: nothing
 * may close under a running query).
 */
export interface WorkUnderWay {
  /** Notes work that `stop` stops; the returned function says it has ended (calling it twice is harmless). */
  start(stop: () => void): () => void;
  /** Stops every piece of work under way and waits until each has said it ended. */
  stopAll(): Promise<void>;
  /** How many are under way (tests look at it). */
  readonly size: number;
}

export function createWorkUnderWay(): WorkUnderWay {
  const underWay = new Map<Promise<void>, () => void>();
  return {
    get size() {
      return underWay.size;
    },
    start(stop) {
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      underWay.set(ended, stop);
      return () => {
        underWay.delete(ended);
        end();
      };
    },
    async stopAll() {
      for (const stop of underWay.values()) stop();
      await Promise.all(underWay.keys());
    },
  };
}
