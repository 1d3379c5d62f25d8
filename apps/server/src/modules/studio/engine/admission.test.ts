import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors.js';
import { createAdmission } from './admission.js';

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'admitted';
  } catch (error) {
    if (error instanceof AppError) return error.errorCode;
    throw error;
  }
}

describe('admission', () => {
  it('admits up to the slots at once, then queues first come, first served', async () => {
    const admission = createAdmission({ slots: 2, waitMs: 5_000, waitingPerSlot: 8 });
    const first = await admission.admit('t');
    const second = await admission.admit('t');
    expect(admission.load('t')).toEqual({ running: 2, waiting: 0 });
    const order: string[] = [];
    const third = admission.admit('t').then((release) => (order.push('third'), release));
    const fourth = admission.admit('t').then((release) => (order.push('fourth'), release));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual([]);
    expect(admission.load('t')).toEqual({ running: 2, waiting: 2 });
    first();
    first(); // twice is harmless: it frees one slot
    (await third)();
    second();
    (await fourth)();
    expect(order).toEqual(['third', 'fourth']);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(admission.load('t')).toEqual({ running: 0, waiting: 0 });
  });

  it('keeps each bucket apart', async () => {
    const admission = createAdmission({ slots: 1, waitMs: 0, waitingPerSlot: 8 });
    const a = await admission.admit('a');
    const b = await admission.admit('b');
    expect(await codeOf(admission.admit('a'))).toBe('too_many_queries');
    a();
    b();
  });

  it('answers 429 at once when waiting is off or the queue is full, and past the wait', async () => {
    const off = createAdmission({ slots: 1, waitMs: 0, waitingPerSlot: 8 });
    const held = await off.admit('t');
    const refused = await off.admit('t').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).headers).toEqual({ 'Retry-After': '1' });
    held();

    const short = createAdmission({ slots: 1, waitMs: 50, waitingPerSlot: 1 });
    const busy = await short.admit('t');
    const waiting = short.admit('t');
    expect(await codeOf(short.admit('t'))).toBe('too_many_queries');
    expect(await codeOf(waiting)).toBe('too_many_queries');
    expect(short.load('t')).toEqual({ running: 1, waiting: 0 });
    busy();
  });

  it('lets a waiting query leave on its signal, answered query_refused', async () => {
    const admission = createAdmission({ slots: 1, waitMs: 5_000, waitingPerSlot: 8 });
    const busy = await admission.admit('t');
    const controller = new AbortController();
    const waiting = admission.admit('t', controller.signal);
    controller.abort();
    expect(await codeOf(waiting)).toBe('query_refused');
    expect(admission.load('t').waiting).toBe(0);
    // A signal that aborts once the slot is granted does not free it: its holder does.
    busy();
    const late = new AbortController();
    const release = await admission.admit('t', late.signal);
    late.abort();
    expect(admission.load('t').running).toBe(1);
    release();
  });
});
