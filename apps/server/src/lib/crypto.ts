import { hash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: reset tokens and similar one-time secrets. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Hex SHA-256 of `value`. The one-shot `crypto.hash` builds no Hash object: every sign-in hashes its
 * device, and beside the password hashes' threads (which leave the caches cold) a `createHash` call
 * took 35–45 µs of the loop, the one-shot 17–22 µs.
 */
export function sha256(value: string): string {
  return hash('sha256', value, 'hex');
}

export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
