import { describe, expect, it } from 'vitest';
import { createWorkUnderWay } from './work-under-way.js';

describe('work under way', () => {
  it('stops all work and waits until each piece has said it ended', async () => {
    const work = createWorkUnderWay();
    const stopped: string[] = [];
    const endA = work.start(() => stopped.push('a'));
    const endB = work.start(() => stopped.push('b'));
    expect(work.size).toBe(2);
    let done = false;
    const all = work.stopAll().then(() => (done = true));
    expect(stopped).toEqual(['a', 'b']);
    endA();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(done).toBe(false);
    endB();
    endB(); // twice is harmless
    await all;
    expect(done).toBe(true);
    expect(work.size).toBe(0);
  });

  it('has nothing to wait for when nothing runs', async () => {
    await expect(createWorkUnderWay().stopAll()).resolves.toBeUndefined();
  });
});
