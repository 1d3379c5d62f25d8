import { createCipheriv, createDecipheriv, randomBytes, type KeyObject } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretBox {
  /** Encrypts `plaintext`; `context` (e.g. the owning row's id) must be given again to open it. */
  seal(plaintext: string, context: string): string;
  /** Throws when the value was tampered with, sealed for another context, or with another key. */
  open(sealed: string, context: string): string;
}

/** AES-256-GCM with a random IV per value: `v1.<base64url(iv | tag | ciphertext)>`. */
export function createSecretBox(key: KeyObject): SecretBox {
  const aad = (context: string) => Buffer.from(`${VERSION}:${context}`, 'utf8');
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad(context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
    },
    open(sealed, context) {
      const [version, payload] = sealed.split('.', 2);
      if (version !== VERSION || payload === undefined) throw new Error('Unknown sealed value format');
      const bytes = Buffer.from(payload, 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('Sealed value is truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(aad(context));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}
