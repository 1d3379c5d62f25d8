import { describe, expect, it } from 'vitest';
import { containsMask, maskDatabaseUrl, scrubSecrets, secretsOf, unmaskDatabaseUrl } from './database-url.js';

describe('database URLs', () => {
  it('masks the password, keeping everything else', () => {
    expect(maskDatabaseUrl('postgresql://app:secret@db.example:5432/acme')).toBe(
      'postgresql://app:****@db.example:5432/acme',
    );
    expect(maskDatabaseUrl('postgres://app:p%40ss%2Fw0rd@db.example/acme?sslmode=require')).toBe(
      'postgres://app:****@db.example/acme?sslmode=require',
    );
    expect(maskDatabaseUrl('postgresql://db.example/acme?user=app&password=x&sslpassword=y')).toBe(
      'postgresql://db.example/acme?user=app&password=****&sslpassword=****',
    );
    expect(maskDatabaseUrl('postgresql://app@db.example/acme')).toBe('postgresql://app@db.example/acme');
  });

  it('puts the stored secrets back where the mask stands', () => {
    const stored = 'postgresql://app:p%40ss@db.example:5432/acme?password=q';
    expect(containsMask('postgresql://app:****@db.example/acme')).toBe(true);
    expect(containsMask('postgresql://app:other@db.example/acme')).toBe(false);
    expect(unmaskDatabaseUrl('postgresql://app:****@db2.example:5432/acme?password=****', stored)).toBe(
      'postgresql://app:p%40ss@db2.example:5432/acme?password=q',
    );
    expect(unmaskDatabaseUrl('postgresql://app:****@db.example/acme', null)).toBeUndefined();
    expect(unmaskDatabaseUrl('postgresql://app:****@db.example/acme', 'postgresql://app@db.example/acme')).toBe(
      undefined,
    );
  });

  it('scrubs every spelling of the secrets from a message', () => {
    const secrets = secretsOf('postgresql://app:p%40ss@db.example/acme?sslpassword=key-pass');
    expect(scrubSecrets('failed for p@ss, p%40ss and key-pass', secrets)).toBe('failed for ****, **** and ****');
  });
});
