import { describe, expect, it } from 'vitest';
import { comesBackText } from './ask-progress.js';

describe('comesBackText', () => {
  it('says when a spent budget comes back, from Retry-After', () => {
    const now = Date.UTC(2026, 11, 7, 19, 0, 0);
    expect(comesBackText(5 * 3600, now)).toBe('at 00:00 UTC, in about 5 hours');
    expect(comesBackText(90, now)).toBe('at 19:01 UTC, in about 2 minutes');
    expect(comesBackText(undefined, now)).toBe('at midnight UTC');
  });
});
