import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const strongSecret = 'a-very-long-random-secret-value-0123456789abcdef';

function dataDir() {
  return mkdtempSync(path.join(tmpdir(), 'dp-config-'));
}

describe('loadConfig', () => {
  it('uses the documented defaults in local', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.environment).toBe('local');
    expect(config.port).toBe(8000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.accessTokenExpireMinutes).toBe(60 * 24 * 8);
    expect(config.smtp).toBeUndefined();
    expect(config.firstSuperuser).toBe('admin@example.com');
  });

  it('keeps data at the repository root unless DATA_DIR says otherwise, relative to where npm was run', () => {
    const repoRoot = path.resolve(import.meta.dirname, '../../..');
    expect(loadConfig({ SECRET_KEY: strongSecret }).dataDir).toBe(path.join(repoRoot, 'data'));
    expect(loadConfig({ SECRET_KEY: strongSecret, DATA_DIR: 'store', INIT_CWD: '/srv/app' }).dataDir).toBe(
      '/srv/app/store',
    );
  });

  it('generates a local secret once and keeps it under DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.secretKey.length).toBeGreaterThanOrEqual(32);
    expect(second.secretKey).toBe(first.secretKey);
    expect(readFileSync(path.join(dir, '.secret_key'), 'utf8')).toBe(first.secretKey);
  });

  it.each(['staging', 'production'])('refuses a missing or default SECRET_KEY in %s', (environment) => {
    const base = { ENVIRONMENT: environment, FIRST_SUPERUSER_PASSWORD: 'a-real-password', SMTP_HOST: 'smtp.test' };
    expect(() => loadConfig(base)).toThrow(/SECRET_KEY/);
    expect(() => loadConfig({ ...base, SECRET_KEY: 'changethis' })).toThrow(/SECRET_KEY/);
    expect(() => loadConfig({ ...base, SECRET_KEY: 'short' })).toThrow(/at least 32/);
    expect(loadConfig({ ...base, SECRET_KEY: strongSecret }).secretKey).toBe(strongSecret);
  });

  it('requires superusers to use two-factor sign-in outside local unless REQUIRE_SUPERUSER_2FA says otherwise (TOTP-ADMIN-1)', () => {
    const dir = dataDir();
    const staging = { ENVIRONMENT: 'staging', SECRET_KEY: strongSecret, FIRST_SUPERUSER_PASSWORD: 'a-real-password' };
    expect(loadConfig({ DATA_DIR: dir }).requireSuperuserTwoFactor).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, REQUIRE_SUPERUSER_2FA: 'true' }).requireSuperuserTwoFactor).toBe(true);
    expect(loadConfig(staging).requireSuperuserTwoFactor).toBe(true);
    expect(loadConfig({ ...staging, REQUIRE_SUPERUSER_2FA: '' }).requireSuperuserTwoFactor).toBe(true);
    expect(loadConfig({ ...staging, REQUIRE_SUPERUSER_2FA: 'false' }).requireSuperuserTwoFactor).toBe(false);
    expect(() => loadConfig({ DATA_DIR: dir, REQUIRE_SUPERUSER_2FA: 'maybe' })).toThrow(/REQUIRE_SUPERUSER_2FA/);
  });

  it('drains for 5 s (none in local) and gives up after 30 s by default; the give-up must come after the drain', () => {
    const dir = dataDir();
    const staging = { ENVIRONMENT: 'staging', SECRET_KEY: strongSecret, FIRST_SUPERUSER_PASSWORD: 'a-real-password' };
    expect(loadConfig(staging).shutdown).toEqual({ drainMs: 5_000, timeoutMs: 30_000 });
    expect(loadConfig({ ...staging, SHUTDOWN_DRAIN_MS: '' }).shutdown.drainMs).toBe(5_000);
    expect(loadConfig({ ...staging, SHUTDOWN_DRAIN_MS: '0' }).shutdown.drainMs).toBe(0);
    expect(loadConfig({ DATA_DIR: dir }).shutdown).toEqual({ drainMs: 0, timeoutMs: 30_000 });
    expect(loadConfig({ DATA_DIR: dir, SHUTDOWN_DRAIN_MS: '2500' }).shutdown.drainMs).toBe(2_500);
    expect(() => loadConfig({ DATA_DIR: dir, SHUTDOWN_DRAIN_MS: '30000' })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
    expect(() => loadConfig({ DATA_DIR: dir, SHUTDOWN_DRAIN_MS: '-1' })).toThrow(ConfigError);
  });

  it('refuses a default first-superuser password outside local', () => {
    const base = { ENVIRONMENT: 'staging', SECRET_KEY: strongSecret };
    expect(() => loadConfig(base)).toThrow(/FIRST_SUPERUSER_PASSWORD/);
    expect(() => loadConfig({ ...base, FIRST_SUPERUSER_PASSWORD: 'changethis' })).toThrow(/FIRST_SUPERUSER_PASSWORD/);
  });

  it('leaves /metrics off unless METRICS_TOKEN is set, and refuses a short or spaced token', () => {
    const base = { SECRET_KEY: strongSecret, DATA_DIR: dataDir() };
    expect(loadConfig(base).metricsToken).toBeUndefined();
    expect(loadConfig({ ...base, METRICS_TOKEN: '  ' }).metricsToken).toBeUndefined();
    expect(() => loadConfig({ ...base, METRICS_TOKEN: 'changethis' })).toThrow(/METRICS_TOKEN: must be at least 16/);
    expect(() => loadConfig({ ...base, METRICS_TOKEN: 'two halves of a long token' })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ ...base, METRICS_TOKEN: ' 0123456789abcdef0123 ' }).metricsToken).toBe('0123456789abcdef0123');
  });

  it('requires SMTP in production so recovery links never go to the log', () => {
    const base = { ENVIRONMENT: 'production', SECRET_KEY: strongSecret, FIRST_SUPERUSER_PASSWORD: 'a-real-password' };
    expect(() => loadConfig(base)).toThrow(/SMTP_HOST/);
    expect(loadConfig({ ...base, SMTP_HOST: 'smtp.test' }).smtp?.host).toBe('smtp.test');
  });

  it('lists every invalid variable in one clear error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', ENVIRONMENT: 'dev', DATABASE_URL: 'mysql://x' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/ENVIRONMENT/);
    expect(message).toMatch(/DATABASE_URL/);
  });

  it('reads TENANT_DB_HOSTS as a list, any host when unset or blank, and refuses a malformed entry', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).tenantDatabases.allowedHosts).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir(), TENANT_DB_HOSTS: ' ' }).tenantDatabases.allowedHosts).toBeNull();
    const listed = loadConfig({ DATA_DIR: dataDir(), TENANT_DB_HOSTS: 'DB1.internal, *.tenants.example.com,10.0.0.7' });
    expect(listed.tenantDatabases.allowedHosts).toEqual(['db1.internal', '*.tenants.example.com', '10.0.0.7']);
    expect(() => loadConfig({ DATA_DIR: dataDir(), TENANT_DB_HOSTS: 'db1, http://db2/' })).toThrow(/TENANT_DB_HOSTS/);
  });

  it('reads TRUST_PROXY as off, every hop, or a list of proxy addresses and ranges, and refuses anything else', () => {
    const trustOf = (value?: string) =>
      loadConfig({ DATA_DIR: dataDir(), ...(value === undefined ? {} : { TRUST_PROXY: value }) }).trustProxy;
    expect(trustOf()).toBe(false);
    expect(trustOf('false')).toBe(false);
    expect(trustOf('true')).toBe(true);
    expect(trustOf(' 10.0.0.0/8, ::1 ,192.168.1.5')).toEqual(['10.0.0.0/8', '::1', '192.168.1.5']);
    expect(() => trustOf('10.0.0.0/33')).toThrow(/TRUST_PROXY.*10\.0\.0\.0\/33/s);
    expect(() => trustOf('proxy.internal')).toThrow(/TRUST_PROXY/);
    expect(() => trustOf('2')).toThrow(/TRUST_PROXY/);
  });

  it('counts limits in memory unless REDIS_URL names a Redis, and never echoes its password when refused', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).redis).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dataDir(), REDIS_URL: ' ' }).redis).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dataDir(), REDIS_URL: 'rediss://:pw@cache.internal:6380/2' }).redis).toEqual({
      url: 'rediss://:pw@cache.internal:6380/2',
      keyPrefix: 'dataplatform:',
    });
    expect(
      loadConfig({ DATA_DIR: dataDir(), REDIS_URL: 'redis://127.0.0.1', REDIS_KEY_PREFIX: 'staging:dp:' }).redis
        ?.keyPrefix,
    ).toBe('staging:dp:');
    expect(() => loadConfig({ DATA_DIR: dataDir(), REDIS_URL: 'redis://x', REDIS_KEY_PREFIX: 'has space' })).toThrow(
      /REDIS_KEY_PREFIX/,
    );
    let message = '';
    try {
      loadConfig({ DATA_DIR: dataDir(), REDIS_URL: 'http://user:hunter2-secret@cache.internal' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/REDIS_URL/);
    expect(message).not.toMatch(/hunter2/);
  });

  it('keeps extracts in the data folder unless STUDIO_STORAGE_URL names a folder or an S3 bucket, and refuses anything else', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).studio).toMatchObject({
      storage: { kind: 'folder', dir: undefined },
      cacheMaxBytes: 10 * 1024 ** 3,
      // The product says "up to 10GB".
      extractMaxBytes: 10 * 1024 ** 3,
      extractConvertTimeoutMs: 900_000,
    });
    expect(loadConfig({ DATA_DIR: dir, STUDIO_STORAGE_URL: 'file:///mnt/shared/extracts' }).studio.storage).toEqual({
      kind: 'folder',
      dir: '/mnt/shared/extracts',
    });
    expect(
      loadConfig({
        DATA_DIR: dir,
        STUDIO_STORAGE_URL: 's3://team-extracts/studio/prod/',
        STUDIO_S3_ENDPOINT: 'http://127.0.0.1:9000',
        STUDIO_S3_REGION: 'eu-west-1',
        STUDIO_S3_FORCE_PATH_STYLE: 'true',
        STUDIO_CACHE_MAX_BYTES: String(1024 ** 3),
      }).studio,
    ).toMatchObject({
      storage: {
        kind: 's3',
        bucket: 'team-extracts',
        prefix: 'studio/prod',
        endpoint: 'http://127.0.0.1:9000',
        region: 'eu-west-1',
        forcePathStyle: true,
      },
      cacheMaxBytes: 1024 ** 3,
    });
    expect(loadConfig({ DATA_DIR: dir, STUDIO_STORAGE_URL: 's3://bucket' }).studio.storage).toMatchObject({
      bucket: 'bucket',
      prefix: '',
      forcePathStyle: false,
    });
    for (const refused of [
      '/srv/extracts',
      'file://server/share',
      's3://',
      's3://key:secret@bucket/x',
      'gs://bucket',
    ]) {
      expect(() => loadConfig({ DATA_DIR: dir, STUDIO_STORAGE_URL: refused }), refused).toThrow(/STUDIO_STORAGE_URL/);
    }
    expect(() => loadConfig({ DATA_DIR: dir, STUDIO_STORAGE_URL: 's3://key:secret@bucket/x' })).not.toThrow(/secret/);
    expect(() => loadConfig({ DATA_DIR: dir, STUDIO_CACHE_MAX_BYTES: '10' })).toThrow(/STUDIO_CACHE_MAX_BYTES/);
  });

  it('parses SMTP flags and strips the trailing slash of FRONTEND_HOST', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      SMTP_HOST: 'mail.test',
      SMTP_PORT: '465',
      SMTP_SSL: 'true',
      SMTP_TLS: 'false',
      FRONTEND_HOST: 'https://app.example.com/',
    });
    expect(config.smtp).toMatchObject({ host: 'mail.test', port: 465, ssl: true, tls: false });
    expect(config.frontendHost).toBe('https://app.example.com');
  });
});
