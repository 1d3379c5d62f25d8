import { describe, expect, it } from 'vitest';
import { createMemoryCache, resultKey } from './result-cache.js';

const result = (n: number) => ({ columns: [{ name: 'n', type: 'INTEGER' }], rows: [[n]], count: 1 });

describe('the memory cache of results', () => {
  it('keeps each result for its own time, the least recently used dropped past the size', async () => {
    let now = 1_000;
    const cache = createMemoryCache(2, () => now);
    await cache.set('a', result(1), 10);
    await cache.set('b', result(2), 1);
    expect(await cache.get('a')).toEqual(result(1));
    now += 1_500;
    expect(await cache.get('b')).toBeUndefined();
    await cache.set('c', result(3), 10);
    await cache.set('d', result(4), 10);
    // `a` was used before `c` and `d` came: it went first.
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.get('d')).toEqual(result(4));
  });

  it('counts and drops one tenant’s results, and only theirs', async () => {
    const cache = createMemoryCache();
    const mine = resultKey(['q1'], 't1');
    const shared = resultKey(['q1']);
    await cache.set(mine, result(1), 60);
    await cache.set(resultKey(['q2'], 't1'), result(2), 60);
    await cache.set(resultKey(['q1'], 't2'), result(3), 60);
    await cache.set(shared, result(4), 60);
    expect(mine).not.toBe(shared);
    expect(await cache.countTenant('t1')).toBe(2);
    expect(await cache.dropTenant('t1')).toBe(2);
    expect(await cache.countTenant('t1')).toBe(0);
    expect(await cache.countTenant('t2')).toBe(1);
    expect(await cache.get(shared)).toEqual(result(4));
  });
});
