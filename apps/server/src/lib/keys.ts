import { createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';

/**
 * One SECRET_KEY, several purposes: each gets its own key derived with HKDF, so a key used for one
 * thing (signing tokens) is never reused for another (encrypting tenant database URLs).
 */
export function deriveKey(secretKey: string, purpose: string): KeyObject {
  const derived = hkdfSync('sha256', secretKey, 'dataplatform', purpose, 32);
  return createSecretKey(Buffer.from(derived));
}
