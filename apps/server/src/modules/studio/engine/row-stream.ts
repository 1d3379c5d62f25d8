import { AppError } from '../../../lib/errors.js';
import type { RowStream } from './types.js';

/** How a stream ended early: at its time limit, or because its caller's signal aborted. */
export interface StreamEnding {
  timedOut: boolean;
  cancelled: boolean;
}

/** A result ready to be read: its columns, its count, and each next chunk (undefined at the end). */
export interface OpenedRows {
  columns: RowStream['columns'];
  count: number;
  next(): Promise<unknown[][] | undefined>;
}

export interface RowStreamOptions {
  /** The whole stream's time limit: `interrupt` is called then, and `ending.timedOut` set. */
  timeoutMs: number;
  /** The caller's: `interrupt` is called when it aborts, and `ending.cancelled` set. */
  signal?: AbortSignal | undefined;
  /** Stops the query running now (DuckDB's interrupt, PostgreSQL's cancel). */
  interrupt(): void;
  /** Frees the connection and what else the stream holds; called once, after the stream ends. */
  release(): void;
  /** What a failure means to the reader (a time limit, a cancel, the query's own error). */
  failure(error: unknown, ending: StreamEnding): unknown;
  /** Handed the stream's `close` before it opens (the engine's close() closes a stream no one finished). */
  started?(close: () => void): void;
  /** Runs the statements up to the first row: the shape, the count and the reader of chunks. */
  open(): Promise<OpenedRows>;
}

/**
 * The scaffolding of a streamed result, the same for DuckDB and PostgreSQL: a time limit and the
 * caller's signal both interrupt it, and its resources are freed exactly once, whichever of the last
 * chunk, a failure or `close()` comes first.
 */
export async function streamRows(options: RowStreamOptions): Promise<RowStream> {
  const ending: StreamEnding = { timedOut: false, cancelled: false };
  const timer = setTimeout(() => {
    ending.timedOut = true;
    options.interrupt();
  }, options.timeoutMs);
  const onAbort = () => {
    ending.cancelled = true;
    options.interrupt();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const close = onceOnly(() => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    options.release();
  });
  options.started?.(close);
  try {
    const opened = await options.open();
    async function* chunks(): AsyncGenerator<unknown[][]> {
      try {
        for (;;) {
          const chunk = await opened.next();
          if (chunk === undefined) return;
          yield chunk;
        }
      } catch (error) {
        throw options.failure(error, ending);
      } finally {
        close();
      }
    }
    return { columns: opened.columns, count: opened.count, chunks: chunks(), close };
  } catch (error) {
    close();
    throw options.failure(error, ending);
  }
}

/** `free`, run at most once however often the returned function is called. */
export function onceOnly(free: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    free();
  };
}

/** `stream`, freeing `free` too once it ends, fails or is closed (whichever comes first). */
export function alsoFreeing(stream: RowStream, free: () => void): RowStream {
  const close = onceOnly(() => {
    stream.close();
    free();
  });
  async function* chunks() {
    try {
      yield* stream.chunks;
    } finally {
      close();
    }
  }
  return { columns: stream.columns, count: stream.count, chunks: chunks(), close };
}

/** A download's answer when its result has more rows than a download may hold. */
export function tooLargeToExport(count: number, maxRows: number): AppError {
  return new AppError(
    'result_too_large',
    `The result has ${count} rows; a download holds at most ${maxRows}: filter it first.`,
  );
}
