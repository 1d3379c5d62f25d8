/** What a run measures and for how long; every knob is an environment variable. */
export const SCENARIOS = [
  'floor',
  'users-me',
  'login-floor',
  'login',
  'argon2id',
  'lists',
  'studio',
  'agent',
  'sharing',
  'schedules',
  'studio-storage',
  'studio-10g',
  'embedded',
  'pages',
] as const;
export type ScenarioId = (typeof SCENARIOS)[number];
/** Run only when BENCH_SCENARIOS names them: a 10 GB upload takes many minutes and as much disk. */
const OPT_IN: readonly ScenarioId[] = ['studio-10g'];

export interface BenchSettings {
  /** All by default; BENCH_SCENARIOS=users-me,floor narrows a run while investigating. */
  scenarios: ScenarioId[];
  /** A role that may create databases; the run makes its own database there and drops it after. */
  databaseUrl: string;
  durationSeconds: number;
  warmupSeconds: number;
  /**
   * A floor and its endpoint (users/me, login) are measured in turn over this many rounds, each
   * window `durationSeconds / pairedRounds` long; even, so each goes first in half of them.
   */
  pairedRounds: number;
  /** autocannon connections for the floor and users/me. */
  connections: number;
  /** autocannon connections for login: more than the hashing threads, so none of them ever idles. */
  loginConnections: number;
  /** Parallel hashes in the raw argon2id run: the size of the libuv pool the server hashes on. */
  hashConcurrency: number;
  /**
   * Each list scenario runs at both sizes in turn, `listRounds` windows of `listDurationSeconds`
   * each, after a warm-up of `listWarmupSeconds` at each size.
   */
  listRounds: number;
  listDurationSeconds: number;
  listWarmupSeconds: number;
  /** The two sizes every listed table is filled to; the second is judged against the first. */
  listRows: [small: number, large: number];
  /** Embedded starts on a new data folder, then on the existing one, and the idle time before RSS is read. */
  embeddedNewRuns: number;
  embeddedExistingRuns: number;
  embeddedIdleSeconds: number;
  /** Lighthouse runs per page in the page audit (its median is judged). */
  pageRuns: number;
  studio: {
    /** Rows of the demo `rates` (STUDIO_DEMO_ROWS of the server). */
    demoRows: number;
    /** Rows of `rates` in the tenant's own PostgreSQL database. */
    tenantRows: number;
    /** Timed runs of each side of a comparison (medians judged). */
    rounds: number;
    /** The server's STUDIO_QUERY_TIMEOUT_SECONDS: the runaway query must stop there. */
    timeoutSeconds: number;
    /** The CSV uploaded as an extract. */
    uploadBytes: number;
    /** Keeps the demo database between runs (generated once); unset: a temporary folder. */
    dataDir: string | undefined;
    /** The CSV of the extract queried from a folder and from S3 (`studio-storage`). */
    storageExtractBytes: number;
    /** The CSV of `studio-10g`. */
    bigUploadBytes: number;
  };
}

const DEFAULT_DATABASE_URL = 'postgresql://dp_test:dp_test@127.0.0.1:5432/postgres';
/** libuv's default pool size; UV_THREADPOOL_SIZE changes it for the servers and the hasher alike. */
const LIBUV_DEFAULT_POOL_SIZE = 4;

function positiveNumber(name: string, fallback: number, integer: boolean): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`${name} must be a positive ${integer ? 'integer' : 'number'}, got "${raw}"`);
  }
  return value;
}

function scenariosFromEnv(): ScenarioId[] {
  const raw = process.env.BENCH_SCENARIOS?.trim();
  if (!raw) return SCENARIOS.filter((id) => !OPT_IN.includes(id));
  const wanted = raw.split(',').map((name) => name.trim());
  const unknown = wanted.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(`BENCH_SCENARIOS: unknown ${unknown.join(', ')} (known: ${SCENARIOS.join(', ')})`);
  }
  return SCENARIOS.filter((id) => wanted.includes(id));
}

export function loadSettings(): BenchSettings {
  return {
    scenarios: scenariosFromEnv(),
    databaseUrl: process.env.BENCH_DATABASE_URL?.trim() || DEFAULT_DATABASE_URL,
    durationSeconds: positiveNumber('BENCH_DURATION_SECONDS', 16, false),
    warmupSeconds: positiveNumber('BENCH_WARMUP_SECONDS', 3, false),
    pairedRounds: positiveNumber('BENCH_PAIRED_ROUNDS', 8, true),
    connections: positiveNumber('BENCH_CONNECTIONS', 32, true),
    loginConnections: positiveNumber('BENCH_LOGIN_CONNECTIONS', 16, true),
    hashConcurrency: positiveNumber('UV_THREADPOOL_SIZE', LIBUV_DEFAULT_POOL_SIZE, true),
    listRounds: positiveNumber('BENCH_LIST_ROUNDS', 3, true),
    listDurationSeconds: positiveNumber('BENCH_LIST_DURATION_SECONDS', 2, false),
    listWarmupSeconds: positiveNumber('BENCH_LIST_WARMUP_SECONDS', 1, false),
    listRows: [
      positiveNumber('BENCH_LIST_SMALL_ROWS', 1_000, true),
      positiveNumber('BENCH_LIST_LARGE_ROWS', 100_000, true),
    ],
    embeddedNewRuns: positiveNumber('BENCH_EMBEDDED_NEW_RUNS', 2, true),
    embeddedExistingRuns: positiveNumber('BENCH_EMBEDDED_EXISTING_RUNS', 3, true),
    embeddedIdleSeconds: positiveNumber('BENCH_EMBEDDED_IDLE_SECONDS', 60, false),
    pageRuns: positiveNumber('BENCH_PAGE_RUNS', 3, true),
    studio: {
      demoRows: positiveNumber('BENCH_STUDIO_DEMO_ROWS', 2_000_000, true),
      tenantRows: positiveNumber('BENCH_STUDIO_TENANT_ROWS', 1_000_000, true),
      rounds: positiveNumber('BENCH_STUDIO_ROUNDS', 7, true),
      timeoutSeconds: positiveNumber('BENCH_STUDIO_TIMEOUT_SECONDS', 5, false),
      uploadBytes: positiveNumber('BENCH_STUDIO_UPLOAD_BYTES', 1024 ** 3, true),
      dataDir: process.env.BENCH_STUDIO_DATA_DIR?.trim() || undefined,
      storageExtractBytes: positiveNumber('BENCH_STUDIO_STORAGE_BYTES', 100 * 1024 ** 2, true),
      bigUploadBytes: positiveNumber('BENCH_STUDIO_10G_BYTES', 10 * 1024 ** 3, true),
    },
  };
}
