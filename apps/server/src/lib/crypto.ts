import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: reset tokens and similar one-time secrets. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
