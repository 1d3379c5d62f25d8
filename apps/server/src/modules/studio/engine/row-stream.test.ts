import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors.js';
import { alsoFreeing, streamRows, type RowStreamOptions, type StreamEnding } from './row-stream.js';

/** A source of `chunks` whose frees, interrupts and failures are counted. */
function source(chunks: unknown[][][], overrides: Partial<RowStreamOptions> = {}) {
  const seen = { released: 0, interrupted: 0, endings: [] as StreamEnding[] };
  const options: RowStreamOptions = {
    timeoutMs: 5_000,
    interrupt: () => (seen.interrupted += 1),
    release: () => (seen.released += 1),
    failure: (error, ending) => {
      seen.endings.push({ ...ending });
      return error;
    },
    open: () => {
      const left = [...chunks];
      return Promise.resolve({
        columns: [{ name: 'n', type: 'INTEGER' }],
        count: chunks.flat().length,
        next: () => Promise.resolve(left.shift()),
      });
    },
    ...overrides,
  };
  return { options, seen };
}

async function readAll(chunks: AsyncIterable<unknown[][]>): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for await (const chunk of chunks) rows.push(...chunk);
  return rows;
}

describe('streamRows', () => {
  it('streams every chunk, then frees once, even when closed again', async () => {
    const { options, seen } = source([[[1], [2]], [[3]]]);
    let closeFromStart: (() => void) | undefined;
    const stream = await streamRows({ ...options, started: (close) => (closeFromStart = close) });
    expect(stream.count).toBe(3);
    expect(await readAll(stream.chunks)).toEqual([[1], [2], [3]]);
    stream.close();
    closeFromStart?.();
    expect(seen.released).toBe(1);
  });

  it('frees when closed before the first chunk, and when opening fails (with the failure mapped)', async () => {
    const { options, seen } = source([[[1]]]);
    const stream = await streamRows(options);
    stream.close();
    expect(seen.released).toBe(1);

    const failing = source([], { open: () => Promise.reject(new AppError('result_too_large', 'too many')) });
    await expect(streamRows(failing.options)).rejects.toMatchObject({ errorCode: 'result_too_large' });
    expect(failing.seen.released).toBe(1);
    expect(failing.seen.endings).toEqual([{ timedOut: false, cancelled: false }]);
  });

  it('interrupts at the time limit and on the signal, and says which', async () => {
    const controller = new AbortController();
    let fail!: (error: Error) => void;
    const { options, seen } = source([], {
      timeoutMs: 20,
      signal: controller.signal,
      open: () =>
        Promise.resolve({
          columns: [],
          count: 1,
          next: () => new Promise<undefined>((_, reject) => (fail = reject)),
        }),
    });
    const stream = await streamRows(options);
    const reading = readAll(stream.chunks);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(seen.interrupted).toBe(1);
    controller.abort();
    expect(seen.interrupted).toBe(2);
    fail(new Error('INTERRUPT'));
    await expect(reading).rejects.toThrow('INTERRUPT');
    expect(seen.endings).toEqual([{ timedOut: true, cancelled: true }]);
    expect(seen.released).toBe(1);
  });
});

describe('alsoFreeing', () => {
  it('frees the extra resource once, with the stream', async () => {
    const { options, seen } = source([[[1]]]);
    let freed = 0;
    const stream = alsoFreeing(await streamRows(options), () => (freed += 1));
    expect(await readAll(stream.chunks)).toEqual([[1]]);
    stream.close();
    expect({ freed, released: seen.released }).toEqual({ freed: 1, released: 1 });
  });
});
