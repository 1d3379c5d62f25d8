import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors.js';
import { createSingleFlight } from './single-flight.js';

describe('single flight', () => {
  it('runs identical work once for everyone who asks at the same time, and again afterwards', async () => {
    const flights = createSingleFlight<number>();
    let runs = 0;
    let finish!: (value: number) => void;
    const work = () => {
      runs += 1;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const a = flights.run('k', undefined, work);
    const b = flights.run('k', undefined, work);
    expect(flights.size).toBe(1);
    finish(42);
    expect(await Promise.all([a, b])).toEqual([42, 42]);
    expect(runs).toBe(1);
    expect(flights.size).toBe(0);
    const c = flights.run('k', undefined, work);
    finish(7);
    expect(await c).toBe(7);
    expect(runs).toBe(2);
  });

  it('lets one asker leave while the others wait, and stops the work when the last one leaves', async () => {
    const flights = createSingleFlight<string>();
    let workSignal!: AbortSignal;
    let finish!: (value: string) => void;
    const work = (signal: AbortSignal) => {
      workSignal = signal;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const first = new AbortController();
    const second = new AbortController();
    const a = flights.run('k', first.signal, work);
    const b = flights.run('k', second.signal, work);
    first.abort();
    await expect(a).rejects.toMatchObject({ errorCode: 'query_refused' });
    expect(workSignal.aborted).toBe(false);
    second.abort();
    await expect(b).rejects.toBeInstanceOf(AppError);
    expect(workSignal.aborted).toBe(true);
    expect(flights.size).toBe(0);
    finish('too late');
  });

  it('hands every waiter the failure, and refuses an asker whose signal has already aborted', async () => {
    const flights = createSingleFlight<string>();
    const failing = () => Promise.reject(new Error('boom'));
    await expect(flights.run('k', undefined, failing)).rejects.toThrow('boom');
    const gone = new AbortController();
    gone.abort();
    await expect(flights.run('other', gone.signal, () => Promise.resolve('x'))).rejects.toMatchObject({
      errorCode: 'query_refused',
    });
  });
});
