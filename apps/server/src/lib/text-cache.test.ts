import { describe, expect, it } from 'vitest';
import { createTextCache } from './text-cache.js';

describe('createTextCache', () => {
  it('keeps at most its limit, forgetting the least recently used text first', () => {
    const cache = createTextCache<number>(2);
    cache.set('a', 1);
    cache.set('bb', 2);
    expect(cache.get('a')).toBe(1);
    // 'a' was used last, so a third text pushes 'bb' out.
    cache.set('ccc', 3);
    expect(cache.get('bb')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('ccc')).toBe(3);
  });

  it('answers the newest value of a text set twice, counting it once', () => {
    const cache = createTextCache<string>(2);
    cache.set('x', 'old');
    cache.set('x', 'new');
    cache.set('y', 'y');
    expect(cache.get('x')).toBe('new');
    expect(cache.get('y')).toBe('y');
  });
});
