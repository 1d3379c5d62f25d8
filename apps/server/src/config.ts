import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { deriveKey } from './lib/keys.js';

/** Values shipped in examples; outside `local` the server refuses to start with them. */
const DEFAULT_SECRETS = new Set(['changethis', 'change-me', 'secret', '']);

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/**
 * Which proxies may speak for the client (Fastify's `trustProxy`): `true` trusts every hop, so the
 * client's own `X-Forwarded-For` entry decides its address — right only behind an edge proxy that
 * overwrites the header (ours does); a comma list of addresses or CIDR ranges trusts those proxies
 * only, so a client cannot forge its address by writing the header itself behind a proxy that
 * appends to it, nor set its own request id by reaching the server directly.
 */
const trustProxyFromEnv = z.string().transform((value, context): boolean | string[] => {
  const text = value.trim().toLowerCase();
  if (['', 'false', '0', 'no'].includes(text)) return false;
  if (['true', 'yes'].includes(text)) return true;
  const proxies = text.split(',').map((entry) => entry.trim());
  const invalid = proxies.filter((entry) => {
    const [address = '', bits, ...rest] = entry.split('/');
    const version = isIP(address);
    if (version === 0 || rest.length > 0) return true;
    if (bits === undefined) return false;
    return !/^\d{1,3}$/.test(bits) || Number(bits) > (version === 4 ? 32 : 128);
  });
  if (invalid.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `expected true, false or a comma list of proxy addresses or CIDR ranges; not ${invalid.join(', ')}`,
    });
    return z.NEVER;
  }
  return proxies;
});

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** Where extract files live (STUDIO_STORAGE_URL): a folder (`file:///…`), or a bucket and prefix (`s3://…`). */
type StorageUrl = { kind: 'folder'; dir: string } | { kind: 's3'; bucket: string; prefix: string };

function storageFromUrl(value: string, context: z.RefinementCtx): StorageUrl {
  const refuse = (message: string) => {
    context.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse('expected file:///absolute/folder or s3://bucket/prefix');
  }
  if (url.protocol === 'file:') {
    if (url.host !== '' && url.host !== 'localhost')
      return refuse('a file: URL names a folder on this machine (file:///…)');
    return { kind: 'folder', dir: fileURLToPath(url) };
  }
  if (url.protocol === 's3:') {
    // Bucket names: 3 to 63 lowercase letters, digits, dots and hyphens (S3's own rule).
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(url.hostname))
      return refuse('s3://bucket/prefix needs a bucket name');
    if (url.username !== '' || url.password !== '' || url.search !== '') {
      return refuse('s3:// takes a bucket and a prefix only; credentials come from the AWS SDK’s usual variables');
    }
    const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
    return { kind: 's3', bucket: url.hostname, prefix };
  }
  return refuse('expected file:///absolute/folder or s3://bucket/prefix');
}

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

export interface RateLimitRule {
  /** Requests allowed per window. */
  max: number;
  windowMs: number;
}

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
  rateLimits: {
    loginPerIp: RateLimitRule;
    /** Failed logins only (see modules/auth/login-throttle.ts). */
    loginFailuresPerAccountAndIp: RateLimitRule;
    loginFailuresPerAccount: RateLimitRule;
    /** Failed two-factor codes only, counted like failed passwords (decision 026). */
    twoFactorFailuresPerAccountAndIp: RateLimitRule;
    twoFactorFailuresPerAccount: RateLimitRule;
    recoveryPerIp: RateLimitRule;
    recoveryPerAccount: RateLimitRule;
    resetPerIp: RateLimitRule;
    signupPerIp: RateLimitRule;
    signupPerAccount: RateLimitRule;
    contactPerIp: RateLimitRule;
    /** Following verification links (decision 029). */
    verifyEmailPerIp: RateLimitRule;
    /** Asking for a new verification e-mail, per signed-in account. */
    verificationMailPerAccount: RateLimitRule;
    /** Questions to the agent and compiled plans, per signed-in account. */
    agentPerAccount: RateLimitRule;
    /** Share links made, per signed-in account. */
    shareLinksPerAccount: RateLimitRule;
    /** Views and runs through one share link, whoever holds it. */
    shareLinkRequests: RateLimitRule;
    /** Lesson checks (issue 60), per signed-in account: each reads the tenant's Studio tables. */
    learnChecksPerAccount: RateLimitRule;
  };
}

export interface AgentConfig {
  /** An OpenAI-compatible server's `/v1` URL (AGENT_BASE_URL); unset: no model, the guided builder only. */
  baseUrl: string | undefined;
  model: string;
  /** Sent as the bearer token; never logged, never in an answer. */
  apiKey: string | undefined;
  /** One model call, first byte to last, stops after this long (`agent_unavailable`). */
  timeoutMs: number;
  /** Failed answers sent back to the model with the check's message before the person is told. */
  maxRepairs: number;
  /** Tokens a tenant's questions may use per UTC day (0: no limit). */
  tokensPerTenantPerDay: number;
}

export interface StudioConfig {
  /** Where the demo data set and each tenant's extracts live (`dataDir/studio`). */
  dir: string;
  /** Rows of the demo `rates` table (STUDIO_DEMO_ROWS). */
  demoRows: number;
  /** A query running longer is interrupted in the engine and answered `query_timeout`. */
  queryTimeoutMs: number;
  /** Queries one tenant may run at once; more wait up to `queueWaitMs`, then are answered 429 `too_many_queries`. */
  maxQueriesPerTenant: number;
  /** How long a query waits for one of its tenant's slots before a 429 (0: answer 429 at once). */
  queueWaitMs: number;
  /** Most rows a chart, KPI or option list may return (more: `result_too_large`). */
  rowCap: number;
  /** Most rows a CSV download of a table may hold (more: `result_too_large` before the first row). */
  exportMaxRows: number;
  /** A download still streaming after this long is stopped in the engine. */
  exportTimeoutMs: number;
  /** DuckDB's memory_limit and threads, per database. */
  duckdbMemoryLimit: string;
  duckdbThreads: number;
  /** Largest extract upload (STUDIO_EXTRACT_MAX_BYTES). */
  extractMaxBytes: number;
  /**
   * An upload's typing into its extract (DuckDB's reader) still running after this long is stopped in
   * the engine and answered `extract_timeout`; nothing of the upload is kept.
   */
  extractConvertTimeoutMs: number;
  /**
   * How long an upload's body may take to arrive (its headers have REQUEST_TIMEOUT_SECONDS like any
   * request's); one still arriving then is answered 408 `request_timeout`.
   */
  extractUploadTimeoutMs: number;
  /** Where extract files live (STUDIO_STORAGE_URL; docs/decisions/060-extract-object-storage.md). */
  storage: StudioStorageConfig;
  /** Bytes of extract files an instance keeps in its local cache of an object store (STUDIO_CACHE_MAX_BYTES). */
  cacheMaxBytes: number;
}

export type StudioStorageConfig =
  /** A folder: `dir`, or `extracts` in the Studio folder when unset (the embedded default). */
  | { kind: 'folder'; dir?: string | undefined }
  | {
      kind: 's3';
      bucket: string;
      /** Put before every object's key, without slashes at either end ('' for none). */
      prefix: string;
      /** Another S3 API endpoint (MinIO, R2, …); unset: the SDK's own (AWS, or AWS_ENDPOINT_URL_S3). */
      endpoint: string | undefined;
      /** Unset: the SDK's (AWS_REGION, the profile), else us-east-1. */
      region: string | undefined;
      /** Bucket in the path rather than the host name (most S3-compatible servers want it). */
      forcePathStyle: boolean;
    };

export interface RedisConfig {
  /** `redis://` or `rediss://` (TLS), with any user and password in it; never logged. */
  url: string;
  /** Put before every key, so several apps (or test runs) can share one Redis. */
  keyPrefix: string;
}

export interface BillingConfig {
  /** `stripe` when STRIPE_SECRET_KEY is set, else the offline `sandbox`. */
  provider: 'stripe' | 'sandbox';
  /** Lower-case ISO 4217 code of every plan and charge. */
  currency: string;
  stripe:
    | {
        secretKey: string;
        publishableKey: string | undefined;
        /** Another Stripe API endpoint (a local stand-in); unset: api.stripe.com. */
        apiBase: string | undefined;
      }
    | undefined;
  /** Verifies `POST /subscriptions/webhook`: STRIPE_WEBHOOK_SECRET, or one derived from SECRET_KEY. */
  webhookSecret: string;
  renewal: {
    /** 0 turns the timer off (renewals then run only when asked). */
    pollIntervalMs: number;
    /** Wait before each retry of a failed renewal; after the last one the subscription is cancelled. */
    retryDelaysMs: number[];
    /** How long a worker's claim on a subscription keeps other instances away. */
    claimMs: number;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const MINUTE = 60_000;

export const defaultRateLimits: Config['rateLimits'] = {
  loginPerIp: { max: 30, windowMs: 5 * MINUTE },
  loginFailuresPerAccountAndIp: { max: 10, windowMs: 15 * MINUTE },
  loginFailuresPerAccount: { max: 50, windowMs: 15 * MINUTE },
  twoFactorFailuresPerAccountAndIp: { max: 5, windowMs: 15 * MINUTE },
  twoFactorFailuresPerAccount: { max: 20, windowMs: 15 * MINUTE },
  recoveryPerIp: { max: 10, windowMs: 15 * MINUTE },
  recoveryPerAccount: { max: 3, windowMs: 15 * MINUTE },
  resetPerIp: { max: 10, windowMs: 15 * MINUTE },
  signupPerIp: { max: 10, windowMs: 60 * MINUTE },
  signupPerAccount: { max: 3, windowMs: 60 * MINUTE },
  contactPerIp: { max: 5, windowMs: 15 * MINUTE },
  verifyEmailPerIp: { max: 20, windowMs: 15 * MINUTE },
  verificationMailPerAccount: { max: 3, windowMs: 15 * MINUTE },
  // The guided builder compiles as choices change; the daily token budget is what bounds a model's cost.
  agentPerAccount: { max: 120, windowMs: MINUTE },
  shareLinksPerAccount: { max: 20, windowMs: MINUTE },
  // 200 people opening a six-block report at once is 1 400 requests: a link shown to a crowd still works.
  shareLinkRequests: { max: 5_000, windowMs: MINUTE },
  // A learner presses "Check my work" after each step; 30 a minute is far above that, and bounds the reads.
  learnChecksPerAccount: { max: 30, windowMs: MINUTE },
};

/** Every rate limit set to one rule: how tests and the bench lift them all out of the way at once. */
export function uniformRateLimits(rule: RateLimitRule): Config['rateLimits'] {
  return Object.fromEntries(Object.keys(defaultRateLimits).map((key) => [key, rule])) as Config['rateLimits'];
}

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
