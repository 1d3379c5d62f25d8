import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { booleanFromEnv, optionalString, storageFromUrl, trustProxyFromEnv } from './config/env-values.js';
import { defaultRateLimits, type RateLimits } from './config/rate-limits.js';
import type { AgentConfig, BillingConfig, RedisConfig, StudioConfig } from './config/sections.js';
import { deriveKey } from './lib/keys.js';

// The environment's variables (EnvSchema), the Config they become, and loadConfig; the sections'
// shapes, the rate limits and the variables' parsers are in ./config/.
export { defaultRateLimits, uniformRateLimits, type RateLimitRule } from './config/rate-limits.js';
export type { AgentConfig, BillingConfig, RedisConfig, StudioConfig } from './config/sections.js';

/** Values shipped in examples; outside `local` the server refuses to start with them. */
const DEFAULT_SECRETS = new Set(['changethis', 'change-me', 'secret', '']);

const EnvSchema = z.object({
  ENVIRONMENT: z.enum(['local', 'staging', 'production']).default('local'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  LISTEN_BACKLOG: z.coerce.number().int().min(1).max(65_535).default(4_096),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  REDIS_URL: optionalString.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'must be 1 to 100 letters, digits or _ . : -')
    .default('dataplatform:'),
  DATA_DIR: optionalString,
  FILES_DIR: optionalString,
  SECRET_KEY: optionalString,
  FRONTEND_HOST: z.url().default('http://localhost:8000'),
  ACCESS_TOKEN_EXPIRE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(525_600)
    .default(60 * 24 * 8),
  FIRST_SUPERUSER: z.email().default('admin@example.com'),
  FIRST_SUPERUSER_PASSWORD: optionalString,
  REQUIRE_SUPERUSER_2FA: optionalString.pipe(booleanFromEnv.optional()),
  SMTP_HOST: optionalString,
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  SMTP_USER: optionalString,
  SMTP_PASSWORD: optionalString,
  SMTP_TLS: booleanFromEnv.default(true),
  SMTP_SSL: booleanFromEnv.default(false),
  EMAILS_FROM_EMAIL: z.email().default('noreply@example.com'),
  EMAILS_FROM_NAME: z.string().default('Data Platform'),
  TRUST_PROXY: trustProxyFromEnv.default(false),
  METRICS_TOKEN: optionalString.pipe(
    z
      .string()
      .min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 32`)')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
      .optional(),
  ),
  MAIL_RETRY_HOURS: z.coerce.number().int().min(1).max(8_760).default(72),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3_600).default(30),
  SHUTDOWN_DRAIN_MS: optionalString.pipe(z.coerce.number<string>().int().min(0).max(600_000).optional()),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
  WEB_DIST_DIR: optionalString,
  CONTACT_NOTIFY_EMAIL: optionalString.pipe(z.email().optional()),
  TENANT_POOL_MAX: z.coerce.number().int().min(1).max(10_000).default(20),
  TENANT_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(5),
  TENANT_POOL_IDLE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  TENANT_DB_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
  TENANT_DB_HOSTS: optionalString.pipe(
    z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((host) => host.trim().toLowerCase())
          .filter((host) => host !== ''),
      )
      .pipe(
        z.array(
          z
            .string()
            .regex(/^(\*\.)?[a-z0-9._:-]+$/, 'must be host names, addresses or *.domain patterns, comma-separated'),
        ),
      )
      .optional(),
  ),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_API_BASE: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  BILLING_CURRENCY: z
    .string()
    .regex(/^[a-zA-Z]{3}$/, 'must be a three-letter ISO currency code')
    .transform((value) => value.toLowerCase())
    .default('usd'),
  STUDIO_DEMO_ROWS: z.coerce.number().int().min(1_000).max(100_000_000).default(2_000_000),
  STUDIO_QUERY_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(600).default(15),
  STUDIO_MAX_QUERIES_PER_TENANT: z.coerce.number().int().min(1).max(1_000).default(4),
  STUDIO_QUEUE_WAIT_SECONDS: z.coerce.number().min(0).max(600).default(10),
  STUDIO_ROW_CAP: z.coerce.number().int().min(10).max(1_000_000).default(10_000),
  STUDIO_EXPORT_MAX_ROWS: z.coerce.number().int().min(1).max(100_000_000).default(1_000_000),
  STUDIO_EXPORT_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(3_600).default(120),
  STUDIO_EXTRACT_CONVERT_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(3_600).default(900),
  STUDIO_EXTRACT_UPLOAD_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(1_800),
  STUDIO_DUCKDB_MEMORY_LIMIT: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|KiB|MiB|GiB)$/i, 'must be a size such as 512MB')
    .default('512MB'),
  STUDIO_DUCKDB_THREADS: z.coerce.number().int().min(1).max(64).default(2),
  // The product's "up to 10GB": a 10 GiB CSV took 501 s to arrive and be typed on a 2-core host
  // (bench/results/2026-12-07-extract-storage.md), hence 900 s for the typing below.
  STUDIO_EXTRACT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(10 * 1024 ** 3),
  STUDIO_STORAGE_URL: optionalString.pipe(z.string().transform(storageFromUrl).optional()),
  STUDIO_S3_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  STUDIO_S3_REGION: optionalString,
  STUDIO_S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
  STUDIO_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(10 * 1024 ** 3),
  AGENT_BASE_URL: optionalString.pipe(z.url().optional()),
  AGENT_MODEL: z.string().trim().min(1).max(200).default('llama3.1'),
  AGENT_API_KEY: optionalString,
  AGENT_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(600).default(60),
  AGENT_MAX_REPAIRS: z.coerce.number().int().min(0).max(10).default(2),
  AGENT_TOKENS_PER_TENANT_PER_DAY: z.coerce.number().int().min(0).max(1_000_000_000).default(200_000),
  RENEWAL_POLL_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  RENEWAL_RETRY_DELAYS_HOURS: z
    .string()
    .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'must be a comma-separated list of whole hours')
    .default('24,72,120'),
});

export type Environment = z.infer<typeof EnvSchema>['ENVIRONMENT'];

export interface Config {
  environment: Environment;
  host: string;
  port: number;
  /**
   * Connections the kernel holds for the server before it accepts them (capped by
   * net.core.somaxconn). Node's 511 overflows when a crowd connects at once (200 viewers of a share
   * link open some 1 200): a dropped connection is retried by the client a second or more later.
   */
  listenBacklog: number;
  logLevel: string;
  /** Unset: the embedded PGlite database under `dataDir`. */
  databaseUrl: string | undefined;
  /**
   * Where rate limits and the login throttle count (decision 049), shared by every instance. Unset:
   * each process counts in its own memory.
   */
  redis: RedisConfig | undefined;
  dataDir: string;
  /** Downloadable files (`GET /files/download/{filename}`); defaults to `dataDir/files`. */
  filesDir: string;
  secretKey: string;
  frontendHost: string;
  accessTokenExpireMinutes: number;
  firstSuperuser: string;
  firstSuperuserPassword: string | undefined;
  /**
   * Superusers must turn on two-factor sign-in before any admin operation answers them
   * (REQUIRE_SUPERUSER_2FA; default on outside `local`, decision 026).
   */
  requireSuperuserTwoFactor: boolean;
  smtp:
    | {
        host: string;
        port: number;
        user: string | undefined;
        password: string | undefined;
        /** STARTTLS required on a plain connection. */
        tls: boolean;
        /** Implicit TLS from the first byte (port 465). */
        ssl: boolean;
      }
    | undefined;
  emailsFrom: { email: string; name: string };
  /**
   * Behind a reverse proxy: the client address comes from `X-Forwarded-For`, and an incoming
   * `X-Request-Id` is kept as the request id.
   */
  /** Fastify's `trustProxy`: false, true (every hop), or the trusted proxies' addresses and ranges. */
  trustProxy: boolean | string[];
  /** Bearer token `GET /metrics` requires; unset: there is no /metrics route (decision 050). */
  metricsToken: string | undefined;
  /**
   * A request whose headers have not arrived by then, or whose body has not arrived that long after
   * them, is answered 408 and closed (an extract upload's body has `studio.extractUploadTimeoutMs`).
   */
  requestTimeoutMs: number;
  /** What SIGTERM/SIGINT do (src/shutdown.ts, docs/decisions/051-graceful-shutdown-and-fleet.md). */
  shutdown: {
    /**
     * How long the server keeps serving after the signal with /readyz answering 503, so that load
     * balancers take it out of rotation before it stops accepting connections. Default 5 s; none in
     * `local`, where nothing balances load and `npm run dev` restarts on every save.
     */
    drainMs: number;
    /** Counted from the signal: past it the process gives up waiting and exits 1. */
    timeoutMs: number;
  };
  /** Where the built web app lives; the server serves it when the folder exists. */
  webDistDir: string;
  outbox: {
    pollIntervalMs: number;
    /** First wait after a failed send; each further failure doubles it, up to `retryCeilingMs`. */
    retryBaseMs: number;
    retryCeilingMs: number;
    /** A mail still unsent this long after it was queued is marked failed (MAIL_RETRY_HOURS). */
    giveUpAfterMs: number;
    /** Optional cap on attempts as well (tests use it); unset in production. */
    maxAttempts?: number;
    /** While mail waits for a retry, how often the mail server is checked (nodemailer's verify). */
    probeIntervalMs: number;
    /** When the server answers again, how many waiting mails a second become due. */
    releasePerSecond: number;
  };
  /** Who gets a mail for each contact form message (FIRST_SUPERUSER unless set). */
  contactNotifyEmail: string;
  tenantDatabases: {
    /** Most tenant pools open at once; the least recently used closes first. */
    maxPools: number;
    /** Connections per tenant pool. */
    poolSize: number;
    /** A pool unused this long is closed. */
    idleMs: number;
    connectTimeoutMs: number;
    /** Hosts tenant databases may live on (`*.example.com` for a domain's hosts); null: any. */
    allowedHosts: string[] | null;
  };
  billing: BillingConfig;
  /** Studio's query engine (issue 31, docs/decisions/044-studio-engine.md). */
  studio: StudioConfig;
  /** The agent's model server (issue 56, docs/decisions/061-the-agent.md). */
  agent: AgentConfig;
  rateLimits: RateLimits;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const MINUTE = 60_000;

/**
 * In `local`, a missing SECRET_KEY is generated once and kept under DATA_DIR so sessions survive a
 * restart. Anywhere else it must be set, long and not a known default.
 */
/**
 * Unset: `data/` at the repository root. A relative path is taken from where the person ran the
 * command (npm runs workspace scripts inside the workspace, and tells the original folder in INIT_CWD).
 */
function resolveDataDir(given: string | undefined, source: NodeJS.ProcessEnv): string {
  if (given === undefined) return fileURLToPath(new URL('../../../data', import.meta.url));
  return path.resolve(source.INIT_CWD ?? process.cwd(), given);
}

function resolveSecretKey(env: z.infer<typeof EnvSchema>, dataDir: string): string {
  const given = env.SECRET_KEY;
  if (env.ENVIRONMENT !== 'local') {
    if (given === undefined || DEFAULT_SECRETS.has(given)) {
      throw new ConfigError(`SECRET_KEY must be set to a random value when ENVIRONMENT=${env.ENVIRONMENT}`);
    }
    if (given.length < 32) {
      throw new ConfigError('SECRET_KEY must be at least 32 characters long');
    }
    return given;
  }
  if (given !== undefined) return given;
  const keyFile = path.join(dataDir, '.secret_key');
  if (existsSync(keyFile)) return readFileSync(keyFile, 'utf8').trim();
  const generated = randomBytes(32).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(keyFile, generated, { mode: 0o600 });
  return generated;
}

function formatIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
}

/** Parses the environment once; throws ConfigError with every problem listed. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(`Invalid configuration:\n${formatIssues(parsed.error)}`);
  }
  const env = parsed.data;
  const dataDir = resolveDataDir(env.DATA_DIR, source);
  if (env.ENVIRONMENT !== 'local') {
    if (env.FIRST_SUPERUSER_PASSWORD === undefined || DEFAULT_SECRETS.has(env.FIRST_SUPERUSER_PASSWORD)) {
      throw new ConfigError(
        `FIRST_SUPERUSER_PASSWORD must be set to a non-default value when ENVIRONMENT=${env.ENVIRONMENT}`,
      );
    }
  }
  if (env.ENVIRONMENT === 'production' && env.SMTP_HOST === undefined) {
    throw new ConfigError('SMTP_HOST must be set when ENVIRONMENT=production (recovery e-mails would go to the log)');
  }
  if (env.STRIPE_SECRET_KEY !== undefined && env.ENVIRONMENT !== 'local') {
    if (env.STRIPE_WEBHOOK_SECRET === undefined) {
      throw new ConfigError('STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY outside local development');
    }
    if (env.STRIPE_PUBLISHABLE_KEY === undefined) {
      throw new ConfigError('STRIPE_PUBLISHABLE_KEY must be set with STRIPE_SECRET_KEY outside local development');
    }
  }
  // Nothing balances load in front of a local run (and `npm run dev` restarts on every save): no drain.
  const drainMs = env.SHUTDOWN_DRAIN_MS ?? (env.ENVIRONMENT === 'local' ? 0 : 5_000);
  if (env.SHUTDOWN_TIMEOUT_MS <= drainMs) {
    throw new ConfigError('SHUTDOWN_TIMEOUT_MS must be longer than SHUTDOWN_DRAIN_MS');
  }
  const secretKey = resolveSecretKey(env, dataDir);
  return {
    environment: env.ENVIRONMENT,
    host: env.HOST,
    port: env.PORT,
    listenBacklog: env.LISTEN_BACKLOG,
    logLevel: env.LOG_LEVEL,
    databaseUrl: env.DATABASE_URL,
    redis: env.REDIS_URL === undefined ? undefined : { url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX },
    dataDir,
    filesDir:
      env.FILES_DIR === undefined
        ? path.join(dataDir, 'files')
        : path.resolve(source.INIT_CWD ?? process.cwd(), env.FILES_DIR),
    secretKey,
    frontendHost: env.FRONTEND_HOST.replace(/\/+$/, ''),
    accessTokenExpireMinutes: env.ACCESS_TOKEN_EXPIRE_MINUTES,
    firstSuperuser: env.FIRST_SUPERUSER.toLowerCase(),
    firstSuperuserPassword: env.FIRST_SUPERUSER_PASSWORD,
    requireSuperuserTwoFactor: env.REQUIRE_SUPERUSER_2FA ?? env.ENVIRONMENT !== 'local',
    smtp:
      env.SMTP_HOST === undefined
        ? undefined
        : {
            host: env.SMTP_HOST,
            port: env.SMTP_PORT,
            user: env.SMTP_USER,
            password: env.SMTP_PASSWORD,
            tls: env.SMTP_TLS,
            ssl: env.SMTP_SSL,
          },
    emailsFrom: { email: env.EMAILS_FROM_EMAIL, name: env.EMAILS_FROM_NAME },
    trustProxy: env.TRUST_PROXY,
    metricsToken: env.METRICS_TOKEN,
    requestTimeoutMs: env.REQUEST_TIMEOUT_SECONDS * 1000,
    shutdown: { drainMs, timeoutMs: env.SHUTDOWN_TIMEOUT_MS },
    webDistDir: env.WEB_DIST_DIR ?? fileURLToPath(new URL('../../web/dist', import.meta.url)),
    outbox: {
      pollIntervalMs: 2000,
      retryBaseMs: 5000,
      retryCeilingMs: 15 * MINUTE,
      giveUpAfterMs: env.MAIL_RETRY_HOURS * 3_600_000,
      probeIntervalMs: 30_000,
      releasePerSecond: 10,
    },
    contactNotifyEmail: (env.CONTACT_NOTIFY_EMAIL ?? env.FIRST_SUPERUSER).toLowerCase(),
    tenantDatabases: {
      maxPools: env.TENANT_POOL_MAX,
      poolSize: env.TENANT_POOL_SIZE,
      idleMs: env.TENANT_POOL_IDLE_SECONDS * 1000,
      connectTimeoutMs: env.TENANT_DB_CONNECT_TIMEOUT_SECONDS * 1000,
      allowedHosts: env.TENANT_DB_HOSTS && env.TENANT_DB_HOSTS.length > 0 ? env.TENANT_DB_HOSTS : null,
    },
    rateLimits: defaultRateLimits,
    studio: {
      dir: path.join(dataDir, 'studio'),
      demoRows: env.STUDIO_DEMO_ROWS,
      queryTimeoutMs: Math.round(env.STUDIO_QUERY_TIMEOUT_SECONDS * 1000),
      maxQueriesPerTenant: env.STUDIO_MAX_QUERIES_PER_TENANT,
      queueWaitMs: Math.round(env.STUDIO_QUEUE_WAIT_SECONDS * 1000),
      rowCap: env.STUDIO_ROW_CAP,
      exportMaxRows: env.STUDIO_EXPORT_MAX_ROWS,
      exportTimeoutMs: Math.round(env.STUDIO_EXPORT_TIMEOUT_SECONDS * 1000),
      duckdbMemoryLimit: env.STUDIO_DUCKDB_MEMORY_LIMIT,
      duckdbThreads: env.STUDIO_DUCKDB_THREADS,
      extractMaxBytes: env.STUDIO_EXTRACT_MAX_BYTES,
      extractConvertTimeoutMs: Math.round(env.STUDIO_EXTRACT_CONVERT_TIMEOUT_SECONDS * 1000),
      extractUploadTimeoutMs: env.STUDIO_EXTRACT_UPLOAD_TIMEOUT_SECONDS * 1000,
      storage:
        env.STUDIO_STORAGE_URL?.kind === 's3'
          ? {
              ...env.STUDIO_STORAGE_URL,
              endpoint: env.STUDIO_S3_ENDPOINT,
              region: env.STUDIO_S3_REGION,
              forcePathStyle: env.STUDIO_S3_FORCE_PATH_STYLE,
            }
          : { kind: 'folder', dir: env.STUDIO_STORAGE_URL?.dir },
      cacheMaxBytes: env.STUDIO_CACHE_MAX_BYTES,
    },
    agent: {
      baseUrl: env.AGENT_BASE_URL?.replace(/\/+$/, ''),
      model: env.AGENT_MODEL,
      apiKey: env.AGENT_API_KEY,
      timeoutMs: Math.round(env.AGENT_TIMEOUT_SECONDS * 1000),
      maxRepairs: env.AGENT_MAX_REPAIRS,
      tokensPerTenantPerDay: env.AGENT_TOKENS_PER_TENANT_PER_DAY,
    },
    billing: {
      provider: env.STRIPE_SECRET_KEY === undefined ? 'sandbox' : 'stripe',
      currency: env.BILLING_CURRENCY,
      stripe:
        env.STRIPE_SECRET_KEY === undefined
          ? undefined
          : {
              secretKey: env.STRIPE_SECRET_KEY,
              publishableKey: env.STRIPE_PUBLISHABLE_KEY,
              apiBase: env.STRIPE_API_BASE,
            },
      webhookSecret:
        env.STRIPE_WEBHOOK_SECRET ?? `whsec_${deriveKey(secretKey, 'sandbox-webhook').export().toString('base64url')}`,
      renewal: {
        pollIntervalMs: env.RENEWAL_POLL_INTERVAL_SECONDS * 1000,
        retryDelaysMs: env.RENEWAL_RETRY_DELAYS_HOURS.split(',').map((hours) => Number(hours.trim()) * 3_600_000),
        claimMs: 5 * MINUTE,
      },
    },
  };
}
