// The shapes of Config's larger sections (../config.ts fills them in from the environment).

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
