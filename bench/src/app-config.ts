import { loadConfig, uniformRateLimits, type Config } from '@dataplatform/server/src/config.js';

/** Shared by the runner (which signs in) and both servers (which verify the token). */
export const BENCH_SECRET_KEY = 'bench-secret-key-that-is-long-enough-0123456789';

const UNLIMITED = { max: 1_000_000_000, windowMs: 60_000 };

/**
 * The real server's configuration, silent, on loopback, with rate limits too high to ever meet;
 * `env` adds settings of a scenario's own (the Studio section's data folder, time limit, /metrics).
 */
export function benchAppConfig(databaseUrl: string, env: Record<string, string> = {}): Config {
  const base = loadConfig({
    ENVIRONMENT: 'local',
    SECRET_KEY: BENCH_SECRET_KEY,
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORT: '0',
    WEB_DIST_DIR: '/nonexistent-web-dist',
    ...env,
  });
  return { ...base, rateLimits: uniformRateLimits(UNLIMITED) };
}

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set (the bench runner sets it)`);
  return value;
}
