import { describe, expect, it } from 'vitest';
import { deriveKey } from './keys.js';
import { createSecretBox } from './secret-box.js';

describe('secret box', () => {
  const box = createSecretBox(deriveKey('a-secret-key-that-is-long-enough-for-tests', 'tenant-dburl'));
  const url = 'postgresql://app:pw@db.example/acme';

  it('opens what it sealed, with a fresh IV every time', () => {
    const first = box.seal(url, 'tenant-1');
    const second = box.seal(url, 'tenant-1');
    expect(first).not.toBe(second);
    expect(first).not.toContain('pw@');
    expect(box.open(first, 'tenant-1')).toBe(url);
    expect(box.open(second, 'tenant-1')).toBe(url);
  });

  it('refuses a value sealed for another row, with another key, or tampered with', () => {
    const sealed = box.seal(url, 'tenant-1');
    expect(() => box.open(sealed, 'tenant-2')).toThrow();
    const otherKey = createSecretBox(deriveKey('another-secret-key-that-is-long-enough', 'tenant-dburl'));
    expect(() => otherKey.open(sealed, 'tenant-1')).toThrow();
    const otherPurpose = createSecretBox(deriveKey('a-secret-key-that-is-long-enough-for-tests', 'sessions'));
    expect(() => otherPurpose.open(sealed, 'tenant-1')).toThrow();
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1;
    expect(() => box.open(`v1.${bytes.toString('base64url')}`, 'tenant-1')).toThrow();
    expect(() => box.open('v2.abc', 'tenant-1')).toThrow();
    expect(() => box.open('v1.abc', 'tenant-1')).toThrow();
  });
});
