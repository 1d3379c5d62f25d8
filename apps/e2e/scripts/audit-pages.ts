// `npm run audit:pages`: a report over the production build (run `npm run build` first), not a test.
//
// For every marketing page, auth screen and signed-in tab (a seeded user for /settings, a seeded
// superuser for /admin, their token in localStorage as a login leaves it) it prints:
// - the gzipped JavaScript the page loads before any interaction (Stripe.js, Stripe's own script
//   from Stripe's servers, is counted nowhere), and any signed-in (console) chunk a public page loads;
// - Lighthouse's scores (Debian's Chromium, Lighthouse's default mobile emulation and throttling),
//   the median of several runs per page so one noisy run does not decide;
// - interaction to next paint of three presses (the eye button on /login, a top-bar menu on
//   /about-us, a tab switch in /settings), the CPU slowed 4x, median of the same number of runs.
// A value past its target prints MISS. Everything also goes to a JSON file.
//
// Options: --chunks-only (byte counts only, no Lighthouse: seconds instead of minutes),
// --runs=<n> (Lighthouse runs per page, default 3), --only=<group>[,<group>] (marketing, auth,
// settings, admin, studio), --paths=<path>[,<path>] (those pages alone, e.g. /settings/plans), --json=<file> (default apps/e2e/audit-results/audit-pages.json),
// --protocol=h2|http1: h2 (the default) puts nginx in front of the server terminating TLS with
// HTTP/2 and sending the build's scripts from disk, as a deployment serves the pages (browsers
// speak HTTP/2 only over TLS; the certificate is self-signed and trusted by the audit's browser
// alone); http1 loads them from the server itself.
// Lighthouse simulates its slow network with the protocol it saw, so the two differ (decision 040).
// AUDIT_REPORT_DIR=<folder> keeps every Lighthouse JSON report there, to see why a score fell.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort, repoRoot, startAppServer, webDistDir, type AppServer } from '../support/app-server.js';
import { startScriptedModel } from '../support/scripted-model.js';
import { isChunk, SIGNED_IN_CHUNKS } from '../support/chunks.js';
import { startTlsProxy } from '../support/tls-proxy.js';

const run = promisify(execFile);
const chromePath = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const reportDir = process.env.AUDIT_REPORT_DIR;
const CHROMIUM_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'];

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
const KB = 1024;

type Group = 'marketing' | 'auth' | 'settings' | 'admin' | 'studio';
type Visitor = 'anonymous' | 'user' | 'superuser';

interface Target {
  /** The floor of each judged Lighthouse category; the others are shown, not judged. */
  floors: Partial<Record<Category, number>>;
  /** Gzipped first-load JavaScript ceiling, in bytes; undefined: shown, not judged. */
  maxJsBytes?: number;
  /** Whether a signed-in chunk in the first load is a miss. */
  noSignedInChunk: boolean;
}

// Issue 30's targets: public pages 95 for performance (marketing pages 100 in the other three);
// signed-in screens 90 for performance, in two full runs in a row (69-89 measured before; 95 was
// not worth a second runtime). Accessibility and best practices stay at 95 where not 100.
const SIGNED_IN_FLOORS = { performance: 90, accessibility: 95, 'best-practices': 95 } as const;
const TARGETS: Record<Group, Target> = {
  marketing: {
    floors: { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 },
    maxJsBytes: 90 * KB,
    noSignedInChunk: true,
  },
  auth: { floors: { performance: 95, accessibility: 95, 'best-practices': 95 }, noSignedInChunk: true },
  settings: { floors: SIGNED_IN_FLOORS, maxJsBytes: 250 * KB, noSignedInChunk: false },
  admin: { floors: SIGNED_IN_FLOORS, maxJsBytes: 250 * KB, noSignedInChunk: false },
  // Studio (issue 32): the report list and a built-in report's viewer, whose first chart is timed too.
  studio: { floors: SIGNED_IN_FLOORS, maxJsBytes: 250 * KB, noSignedInChunk: false },
};

const PAGES: readonly { group: Group; path: string; as: Visitor }[] = [
  ...['/studio', '/about-us', '/data-engineering', '/high-scale-tableau', '/transparency-pipeline', '/contact'].map(
    (page) => ({ group: 'marketing' as const, path: page, as: 'anonymous' as const }),
  ),
  ...['/login', '/signup', '/recover-password', '/reset-password?token=audit-only', '/verify-email'].map((page) => ({
    group: 'auth' as const,
    path: page,
    as: 'anonymous' as const,
  })),
  ...['profile', 'plans', 'payment-methods', 'billing-history', 'password', 'security', 'download', 'danger-zone'].map(
    (tab) => ({
      group: 'settings' as const,
      path: `/settings/${tab}`,
      as: 'user' as const,
    }),
  ),
  ...['users', 'roles', 'permissions', 'user-roles', 'role-permissions', 'tenants', 'sso', 'contacts', 'audit-log'].map(
    (tab) => ({ group: 'admin' as const, path: `/admin/${tab}`, as: 'superuser' as const }),
  ),
  ...['/studio/reports', '/payer'].map((page) => ({ group: 'studio' as const, path: page, as: 'user' as const })),
  // The agent (issue 57) to a user who has chosen no tenant: the guided builder over the demo data, its
  // first preview compiled and drawn, as a fresh `npm start` shows it. Its user may use the agent.
  { group: 'studio', path: '/Agent', as: 'superuser' },
  // Learn (issue 60): the lessons with the signed-in user's progress.
  { group: 'studio', path: '/learn', as: 'user' },
];

const { values: options } = parseArgs({
  options: {
    'chunks-only': { type: 'boolean', default: false },
    runs: { type: 'string', default: '3' },
    only: { type: 'string' },
    paths: { type: 'string' },
    json: { type: 'string', default: path.join(repoRoot, 'apps/e2e/audit-results/audit-pages.json') },
    protocol: { type: 'string', default: 'h2' },
  },
});
const runs = Number(options.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, not ${options.runs}`);
const groups = new Set((options.only ?? 'marketing,auth,settings,admin,studio').split(','));
for (const group of groups) {
  if (!(group in TARGETS)) throw new Error(`--only: unknown group ${group} (marketing, auth, settings, admin, studio)`);
}
if (options.protocol !== 'h2' && options.protocol !== 'http1') {
  throw new Error(`--protocol must be h2 or http1, not ${options.protocol}`);
}
const onlyPaths = options.paths?.split(',');
for (const only of onlyPaths ?? []) {
  if (!PAGES.some((page) => page.path === only)) throw new Error(`--paths: ${only} is no audited page`);
}
const pages = PAGES.filter((page) => groups.has(page.group) && (!onlyPaths || onlyPaths.includes(page.path)));

/** What a login leaves in localStorage (requirement WEB-STORAGE-1): the token and the user record. */
type Session = Record<string, string>;

async function seedAccounts(app: AppServer): Promise<Record<Exclude<Visitor, 'anonymous'> | 'author', Session>> {
  const login = async (email: string, password: string) => {
    const response = await fetch(`${app.baseUrl}/api/v1/login/access-token`, {
      method: 'POST',
      body: new URLSearchParams({ username: email, password }),
      // The server trusts the proxy header here (see app-server.ts): each login gets its own limit.
      headers: { 'x-forwarded-for': `203.0.113.${1 + Math.floor(Math.random() * 254)}` },
    });
    if (!response.ok) throw new Error(`login of ${email}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { access_token: string }).access_token;
  };
  const adminToken = await login(app.superuserEmail, app.superuserPassword);
  const create = async (isSuperuser: boolean): Promise<Session> => {
    const email = `audit-${isSuperuser ? 'admin' : 'user'}-${Date.now()}@example.com`;
    const password = `audit-${Math.random().toString(36).slice(2)}-pw`;
    const response = await fetch(`${app.baseUrl}/api/v1/users/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        email,
        password,
        full_name: isSuperuser ? 'Audit Admin' : 'Audit User',
        is_active: true,
        is_superuser: isSuperuser,
      }),
    });
    if (response.status !== 201) throw new Error(`creating ${email}: ${response.status} ${await response.text()}`);
    const { id } = (await response.json()) as { id: string };
    return {
      access_token: await login(email, password),
      user: JSON.stringify({ id, email, is_superuser: isSuperuser }),
    };
  };
  const user = await create(false);
  const superuser = await create(true);
  // An author for the editor's preview: the superuser, member of a tenant of its own, with it chosen.
  const adminCall = async (method: string, apiPath: string, body: unknown) => {
    const response = await fetch(`${app.baseUrl}/api/v1${apiPath}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${apiPath}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  const tenant = await adminCall('POST', '/tenants/', { name: `Audit ${Date.now()}`, status: 'active' });
  const superuserId = (JSON.parse(superuser.user!) as { id: string }).id;
  await adminCall('PUT', `/tenants/${tenant.id}/members`, [superuserId]);
  return { user, superuser, author: { ...superuser, selectedTenantId: tenant.id } };
}

async function gzippedSize(file: string): Promise<number> {
  return gzipSync(await readFile(file), { level: 9 }).length;
}

interface FirstLoad {
  bytes: number;
  /** Of `bytes`, the chart library's chunk (Vega, loaded with a report's first chart). */
  chartLibraryBytes: number;
  scripts: string[];
  signedIn: string[];
}

/**
 * The chart library's chunks: issue 32 budgets a report viewer's JavaScript before them. The worker
 * that draws chart pictures (Vega) loads with a report's first chart; the live view (Vega again, on
 * the page) only when a person points at a chart (decision 055).
 */
const CHART_LIBRARY_CHUNKS = ['chart-picture.worker', 'live-chart'];

/** What a login leaves in the browser, for a new context at `origin` (none for an anonymous visitor). */
function storageFor(origin: string, session: Session | undefined) {
  if (!session) return undefined;
  return {
    cookies: [],
    origins: [{ origin, localStorage: Object.entries(session).map(([name, value]) => ({ name, value })) }],
  };
}

/** The scripts of our own origin a page loads until the network is idle, without any interaction. */
async function measureFirstLoad(browser: Browser, origin: string, url: string, session?: Session): Promise<FirstLoad> {
  const context = await browser.newContext({
    storageState: storageFor(origin, session),
  });
  try {
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      const requested = new URL(request.url());
      if (request.resourceType() === 'script' && requested.origin === origin) scripts.push(requested.pathname);
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    // Settled means the page's heading is up and nothing more is on its way (a signed-in tab asks
    // the API before its chunks), and on the page asked for: a redirect would measure another page.
    await page.locator('h1').first().waitFor();
    await page.waitForLoadState('networkidle');
    if (new URL(page.url()).pathname !== new URL(url).pathname) {
      throw new Error(`${url} ended on ${page.url()}: is the session right?`);
    }
    let bytes = 0;
    let chartLibraryBytes = 0;
    for (const script of scripts) {
      const size = await gzippedSize(path.join(webDistDir, script));
      bytes += size;
      if (CHART_LIBRARY_CHUNKS.some((chunk) => isChunk(script, chunk))) chartLibraryBytes += size;
    }
    const signedIn = scripts.filter((script) => SIGNED_IN_CHUNKS.some((chunk) => isChunk(script, chunk)));
    return { bytes, chartLibraryBytes, scripts, signedIn };
  } finally {
    await context.close();
  }
}

type Scores = Record<Category, number>;
/** Lighthouse's performance metrics (milliseconds; CLS unitless), kept per run in the JSON. */
const PERFORMANCE_METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'speed-index',
  'cumulative-layout-shift',
] as const;
interface LighthouseRun {
  scores: Scores;
  metrics: Record<string, number>;
  /**
   * Lighthouse's measure of the host's CPU: its 4x slowdown stands for a mid-tier phone on a host of
   * 1500-2000 (a high-end desktop; Lighthouse's throttling guide); on a slower host the same page
   * scores lower. Kept so that runs on different hosts can be compared.
   */
  benchmarkIndex: number;
}

/**
 * One Lighthouse run in a fresh browser profile. A signed-in run first puts the session into that
 * profile's localStorage; Lighthouse then attaches to the same browser and keeps its storage.
 */
async function lighthouseOnce(origin: string, url: string, session: Session | undefined, label: string) {
  const profile = await mkdtemp(path.join(tmpdir(), 'dp-audit-'));
  const port = await freePort();
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromePath,
    headless: true,
    args: [...chromiumArgs, `--remote-debugging-port=${port}`],
  });
  try {
    const seed = context.pages()[0] ?? (await context.newPage());
    if (session) {
      await seed.goto(`${origin}/robots.txt`);
      await seed.evaluate((entries) => {
        for (const [name, value] of entries) localStorage.setItem(name, value);
      }, Object.entries(session));
    }
    await seed.goto('about:blank');
    const { stdout } = await run(
      path.join(repoRoot, 'node_modules/.bin/lighthouse'),
      [
        url,
        `--port=${port}`,
        '--output=json',
        '--output-path=stdout',
        '--quiet',
        `--only-categories=${CATEGORIES.join(',')}`,
        // Storage is the session put there above; the profile is new, so its cache is empty.
        ...(session ? ['--disable-storage-reset'] : []),
      ],
      { env: { ...process.env, CHROME_PATH: chromePath }, maxBuffer: 256 * 1024 * 1024 },
    );
    if (reportDir) {
      await mkdir(reportDir, { recursive: true });
      await writeFile(path.join(reportDir, `${label}.json`), stdout);
    }
    const report = JSON.parse(stdout) as {
      categories: Record<Category, { score: number | null }>;
      audits: Record<string, { numericValue?: number }>;
      environment: { benchmarkIndex: number };
    };
    const scores = Object.fromEntries(
      CATEGORIES.map((category) => [category, Math.round((report.categories[category].score ?? 0) * 100)]),
    ) as Scores;
    // What the performance score is made of, in the JSON only: where a low score comes from.
    const metrics = Object.fromEntries(
      PERFORMANCE_METRICS.map((metric) => [
        metric,
        Math.round((report.audits[metric]?.numericValue ?? NaN) * 1000) / 1000,
      ]),
    );
    return { scores, metrics, benchmarkIndex: report.environment.benchmarkIndex };
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

/**
 * Why a Lighthouse run failed: its own last words on stderr (`Runtime error encountered: …`), which
 * the child-process error's first line (the command) does not say.
 */
function failureReason(error: unknown): string {
  const stderr = (error as { stderr?: unknown } | null)?.stderr;
  const said = typeof stderr === 'string' ? stderr.trim().split('\n').at(-1)?.trim() : undefined;
  if (said) return said;
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown';
}

/** Lighthouse now and then fails a run on a busy machine (NO_NAVSTART, an interstitial): try again. */
async function lighthouse(origin: string, url: string, session: Session | undefined, label: string) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await lighthouseOnce(origin, url, session, label);
    } catch (error) {
      if (attempt === 3) throw error;
      const reason = failureReason(error);
      process.stderr.write(`lighthouse failed on ${url} (attempt ${attempt}: ${reason}), trying again\n`);
    }
  }
}

/** Issues 32 and 59: a report's first chart is drawn within this long of the navigation, the CPU slowed 4×. */
const FIRST_CHART_TARGET_MS = 1500;
const FIRST_CHART_PATH = '/payer';
const FIRST_CHART_WAIT_MS = 60_000;
/**
 * A drawn chart: Vega's SVG inside the block's chart element, found by the description the app gives it
 * (Vega sets that element's role to graphics-document as it draws, so the role cannot find it).
 */
const DRAWN_CHART = '[aria-label$="Use View as table to read its numbers."] svg';

/** The interactions whose responsiveness is judged (issue 30): each must paint within INP_TARGET_MS. */
const INP_TARGET_MS = 200;
const INTERACTIONS: readonly {
  name: string;
  path: string;
  as: Visitor | 'author';
  /** Brings the page where the judged press starts (not measured). */
  prepare?(page: Page): Promise<void>;
  /** Presses what is judged, and waits for what the press shows. */
  act(page: Page): Promise<void>;
}[] = [
  {
    name: 'eye button on /login',
    path: '/login',
    as: 'anonymous',
    async act(page) {
      await page.getByRole('button', { name: 'toggle password visibility' }).click();
      await page.locator('input[autocomplete="current-password"][type="text"]').waitFor();
    },
  },
  {
    name: 'top-bar menu on /about-us',
    path: '/about-us',
    as: 'anonymous',
    async act(page) {
      await page.getByRole('button', { name: 'Company' }).click();
      await page.getByRole('menuitem', { name: 'About Us' }).waitFor();
    },
  },
  {
    name: 'tab switch in /settings',
    path: '/settings/profile',
    as: 'user',
    async act(page) {
      await page.getByRole('tab', { name: 'Password' }).click();
      await page.getByRole('tab', { name: 'Password', selected: true }).waitFor();
    },
  },
  {
    // Issue 32: a parameter changed back to a value whose results the page already holds.
    name: 'cached parameter on /payer',
    path: FIRST_CHART_PATH,
    as: 'user',
    async prepare(page) {
      await payerReady(page);
      const state = page.getByRole('textbox', { name: /^State/ });
      await state.fill('tx');
      await state.press('Enter');
      await page.waitForURL(/state=tx/);
      await payerReady(page);
      await state.fill('');
    },
    async act(page) {
      await page.getByRole('textbox', { name: /^State/ }).press('Enter');
      await page.waitForURL((url) => !url.search.includes('state='));
      await payerReady(page);
    },
  },
  {
    // Issue 57: a question sent to the agent (the audit's scripted model) shows at once that it is asked.
    name: 'question sent on /Agent',
    path: '/Agent',
    as: 'author',
    async prepare(page) {
      await page.getByRole('textbox', { name: 'Your question' }).fill('Median negotiated rate by payer');
    },
    async act(page) {
      await page.getByRole('textbox', { name: 'Your question' }).press('Enter');
      // The question shows above its progress (or its answer, from a quick model) once sent.
      await page.getByText('Median negotiated rate by payer', { exact: true }).first().waitFor();
    },
  },
];

/** The payer report with its outliers' first page and its first chart drawn. */
async function payerReady(page: Page): Promise<void> {
  await page
    .getByRole('region', { name: /furthest from their payer/ })
    .getByText(/^1–25 of [\d,]+$/)
    .waitFor({ timeout: FIRST_CHART_WAIT_MS });
  await page.locator(DRAWN_CHART).first().waitFor({ timeout: FIRST_CHART_WAIT_MS });
}

/**
 * Interaction to next paint of one press, as the browser's Event Timing reports it (the longest
 * event of the interaction, from the press to the next frame painted), on a page that has settled,
 * the CPU slowed 4× as Lighthouse's mobile emulation does.
 */
async function measureInteraction(
  browser: Browser,
  url: string,
  session: Session | undefined,
  act: (page: Page) => Promise<void>,
  prepare?: (page: Page) => Promise<void>,
): Promise<number> {
  const origin = new URL(url).origin;
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    storageState: storageFor(origin, session),
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(url, { waitUntil: 'networkidle' });
    // Settled: the app runs, on a page that has it (a marketing page ships none).
    await page.waitForFunction(
      () =>
        document.querySelector('script[type="module"]') === null ||
        document.documentElement.hasAttribute('data-app-running'),
    );
    await prepare?.(page);
    await page.evaluate(() => {
      const durations: number[] = [];
      // Only what starts from here: the buffered entries include the preparation's presses.
      const since = performance.now();
      (window as unknown as { interactionDurations: number[] }).interactionDurations = durations;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as PerformanceEventTiming[]) {
          if (entry.interactionId && entry.startTime >= since) durations.push(entry.duration);
        }
      }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    });
    await act(page);
    // Event Timing reports an interaction once its frame is painted: give it a moment.
    await page.waitForTimeout(1000);
    const durations = await page.evaluate(
      () => (window as unknown as { interactionDurations: number[] }).interactionDurations,
    );
    // Under the 16 ms threshold, no entry at all: the press painted within a frame.
    return Math.round(Math.max(0, ...durations));
  } finally {
    await context.close();
  }
}

/** Issue 32: an edited block's preview appears within this long of the typing stopping (demo source). */
const PREVIEW_TARGET_MS = 1000;
const PREVIEW_BLOCK = 'Preview probe';

/** A report whose one KPI shows `threshold` itself, computed by a scan of the demo rates. */
const previewDefinition = (threshold: number) => `title: Preview timing
source: demo
blocks:
  - id: probe
    title: ${PREVIEW_BLOCK}
    kpi: { sql: "SELECT count(*) * 0 + ${threshold} AS v FROM rates WHERE negotiated_rate > ${threshold}", value: v }
`;

/**
 * Milliseconds from the end of an edit in the report editor (the whole text replaced, as a paste) to
 * the edited block's new figure in the preview, the editor's pause for typing included. One warm-up
 * edit first; each timed edit asks a query the server has not cached.
 */
async function measurePreview(browser: Browser, origin: string, session: Session, runs: number): Promise<number[]> {
  const context = await browser.newContext({ storageState: storageFor(origin, session) });
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/studio/reports/new`);
    const editor = page.getByRole('textbox', { name: 'Report definition (YAML)' });
    const probe = page.getByRole('region', { name: PREVIEW_BLOCK });
    const edit = async (threshold: number) => {
      await editor.click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.insertText(previewDefinition(threshold));
      const typed = Date.now();
      await probe
        .getByText(new Intl.NumberFormat('en-US').format(threshold), { exact: true })
        .waitFor({ timeout: FIRST_CHART_WAIT_MS });
      return Date.now() - typed;
    };
    await edit(1);
    const samples: number[] = [];
    for (let index = 1; index <= runs; index += 1) samples.push(await edit(1000 + index * 111));
    return samples;
  } finally {
    await context.close();
  }
}

/** Milliseconds from the navigation to the first chart's SVG, the CPU slowed 4× (the network not slowed). */
async function measureFirstChart(browser: Browser, url: string, session: Session | undefined): Promise<number> {
  const context = await browser.newContext({
    storageState: storageFor(new URL(url).origin, session),
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(url, { waitUntil: 'commit' });
    try {
      await page.locator(DRAWN_CHART).first().waitFor({ timeout: FIRST_CHART_WAIT_MS });
    } catch (error) {
      // No chart within the wait: counted as the wait (a MISS), so the rest of the audit is still reported.
      if (error instanceof Error && error.name === 'TimeoutError') return FIRST_CHART_WAIT_MS;
      throw error;
    }
    return Math.round(await page.evaluate(() => performance.now()));
  } finally {
    await context.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

interface PageResult {
  group: Group;
  path: string;
  as: Visitor;
  jsGzipBytes: number;
  chartLibraryGzipBytes: number;
  scripts: string[];
  signedInChunks: string[];
  lighthouseRuns: LighthouseRun[];
  median?: Scores;
  misses: string[];
}

// A scripted OpenAI-compatible model on loopback, so the agent's question box is there to press.
const model = await startScriptedModel();
const app = await startAppServer({ agentBaseUrl: model.url });
const proxy = options.protocol === 'h2' ? await startTlsProxy(app.baseUrl, webDistDir) : undefined;
/** Where the browser loads the pages from: nginx over TLS (HTTP/2), or the server itself (HTTP/1.1). */
const origin = proxy?.baseUrl ?? app.baseUrl;
const servedOver = proxy
  ? 'HTTP/2 (nginx terminating TLS and sending /assets/ from disk, in front of the server)'
  : 'HTTP/1.1 (the server itself)';
const chromiumArgs = proxy
  ? [...CHROMIUM_ARGS, `--ignore-certificate-errors-spki-list=${proxy.spkiHash}`]
  : CHROMIUM_ARGS;
const results: PageResult[] = [];
const interactions: { name: string; samples: number[]; median: number }[] = [];
let firstChart: { samples: number[]; median: number } | undefined;
let preview: { samples: number[]; median: number } | undefined;
try {
  const sessions = pages.some((page) => page.as !== 'anonymous') ? await seedAccounts(app) : undefined;
  const browser = await chromium.launch({ executablePath: chromePath, args: chromiumArgs });
  try {
    for (const page of pages) {
      const url = `${origin}${page.path}`;
      const session = page.as === 'anonymous' ? undefined : sessions?.[page.as];
      const firstLoad = await measureFirstLoad(browser, origin, url, session);
      const target = TARGETS[page.group];
      const misses: string[] = [];
      // A report viewer's budget is what comes before the chart library (issue 32).
      const budgeted = firstLoad.bytes - firstLoad.chartLibraryBytes;
      if (target.maxJsBytes !== undefined && budgeted > target.maxJsBytes) misses.push('js');
      if (target.noSignedInChunk && firstLoad.signedIn.length > 0) misses.push('signed-in chunk');
      const lighthouseRuns: LighthouseRun[] = [];
      if (!options['chunks-only']) {
        for (let index = 1; index <= runs; index += 1) {
          const label = `${page.path.slice(1).replace(/[/?=]/g, '_')}-${index}`;
          lighthouseRuns.push(await lighthouse(origin, url, session, label));
        }
      }
      const medianScores =
        lighthouseRuns.length === 0
          ? undefined
          : (Object.fromEntries(
              CATEGORIES.map((category) => [category, median(lighthouseRuns.map((run) => run.scores[category]))]),
            ) as Scores);
      for (const [category, floor] of Object.entries(target.floors) as [Category, number][]) {
        if (medianScores && medianScores[category] < floor) misses.push(category);
      }
      results.push({
        ...page,
        jsGzipBytes: firstLoad.bytes,
        chartLibraryGzipBytes: firstLoad.chartLibraryBytes,
        scripts: firstLoad.scripts,
        signedInChunks: firstLoad.signedIn,
        lighthouseRuns,
        median: medianScores,
        misses,
      });
      process.stderr.write(`audited ${page.path}\n`);
    }
    if (!options['chunks-only'] && pages.some((page) => page.path === FIRST_CHART_PATH)) {
      const samples: number[] = [];
      for (let index = 1; index <= runs; index += 1) {
        samples.push(await measureFirstChart(browser, `${origin}${FIRST_CHART_PATH}`, sessions?.user));
      }
      firstChart = { samples, median: median(samples) };
      const samplesOfPreview = await measurePreview(browser, origin, sessions!.author, runs);
      preview = { samples: samplesOfPreview, median: median(samplesOfPreview) };
    }
    if (!options['chunks-only']) {
      for (const interaction of INTERACTIONS) {
        if (!pages.some((page) => page.path === interaction.path)) continue;
        const session = interaction.as === 'anonymous' ? undefined : sessions?.[interaction.as];
        const samples: number[] = [];
        for (let index = 1; index <= runs; index += 1) {
          samples.push(
            await measureInteraction(
              browser,
              `${origin}${interaction.path}`,
              session,
              interaction.act,
              interaction.prepare,
            ),
          );
        }
        interactions.push({ name: interaction.name, samples, median: median(samples) });
      }
    }
  } finally {
    await browser.close();
  }
} finally {
  await proxy?.stop();
  await app.stop();
  await model.close();
}

// The table: a judged value past its target carries MISS; an unjudged one is shown as it is.
const mark = (value: string, missed: boolean) => (missed ? `${value} MISS` : value);
const header = [
  'page',
  'as',
  ...(options['chunks-only'] ? [] : CATEGORIES.map((category) => `${category} (median of ${runs})`)),
  'JS gzipped, first load',
  'signed-in chunks',
];
const rows = results.map((result) => {
  const target = TARGETS[result.group];
  const chart = result.chartLibraryGzipBytes;
  const js =
    `${(result.jsGzipBytes / KB).toFixed(1)} KB / ${result.scripts.length} files` +
    (chart > 0 ? `, ${((result.jsGzipBytes - chart) / KB).toFixed(1)} KB before the chart library` : '');
  const budget = target.maxJsBytes === undefined ? '' : ` (<= ${target.maxJsBytes / KB})`;
  return [
    result.path,
    result.as,
    ...(result.median
      ? CATEGORIES.map((category) => {
          const score = result.median![category];
          const floor = target.floors[category];
          return mark(`${score}${floor === undefined ? ' (info)' : ''}`, floor !== undefined && score < floor);
        })
      : []),
    mark(`${js}${budget}`, result.misses.includes('js')),
    // A signed-in tab loads its own area's chunks by design: only public pages are checked.
    target.noSignedInChunk
      ? mark(
          result.signedInChunks.length === 0 ? 'none' : result.signedInChunks.join(' '),
          result.misses.includes('signed-in chunk'),
        )
      : '-',
  ];
});
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
process.stdout.write(
  `Served over ${servedOver}.\n\n${line(header)}\n${line(widths.map((width) => '-'.repeat(width)))}\n`,
);
for (const row of rows) process.stdout.write(`${line(row).trimEnd()}\n`);

const missed = results.filter((result) => result.misses.length > 0);
process.stdout.write(
  `\nTargets: Lighthouse performance 95+ on public pages and 90+ signed in, accessibility, best practices ` +
    `and SEO 100 on marketing pages (95 elsewhere), first-load JS <= ${TARGETS.marketing.maxJsBytes! / KB} KB ` +
    `gzipped on a marketing page and <= ${TARGETS.settings.maxJsBytes! / KB} KB signed in, no signed-in chunk ` +
    `on a public page.\n` +
    (missed.length === 0
      ? `PASS: every audited page meets its targets${options['chunks-only'] ? ' (bytes only, no Lighthouse)' : ''}.\n`
      : `MISS on ${missed.length} page(s): ${missed.map((result) => `${result.path} (${result.misses.join(', ')})`).join('; ')}\n`),
);

const benchmarkIndexes = results.flatMap((result) => result.lighthouseRuns.map((run) => run.benchmarkIndex));
if (benchmarkIndexes.length > 0) {
  process.stdout.write(
    `This host's Lighthouse benchmarkIndex: median ${median(benchmarkIndexes)} ` +
      `(${Math.min(...benchmarkIndexes)}-${Math.max(...benchmarkIndexes)}); the 4x CPU slowdown is calibrated for 1500-2000.\n`,
  );
}

if (interactions.length > 0) {
  process.stdout.write(`\ninteraction (4x CPU slowdown)  INP, median of ${runs} (<= ${INP_TARGET_MS} ms)\n`);
  for (const interaction of interactions) {
    const value = `${interaction.median} ms (${interaction.samples.join(', ')})`;
    process.stdout.write(`${interaction.name.padEnd(29)}  ${mark(value, interaction.median > INP_TARGET_MS)}\n`);
  }
}

if (firstChart) {
  const value = `${firstChart.median} ms (${firstChart.samples.join(', ')})`;
  process.stdout.write(
    `\nfirst chart on ${FIRST_CHART_PATH} (4x CPU slowdown)  ${mark(value, firstChart.median > FIRST_CHART_TARGET_MS)}` +
      ` (<= ${FIRST_CHART_TARGET_MS} ms)\n`,
  );
}
if (preview) {
  const value = `${preview.median} ms (${preview.samples.join(', ')})`;
  process.stdout.write(
    `editor preview after an edit          ${mark(value, preview.median > PREVIEW_TARGET_MS)} (<= ${PREVIEW_TARGET_MS} ms)\n`,
  );
}

// The signed-in areas' own chunks, for orientation: what a first visit to them downloads on top.
const assets = await readdir(path.join(webDistDir, 'assets'));
const chunkSizes: Record<string, number | null> = {};
process.stdout.write('\nsigned-in chunk         JS gzipped\n----------------------  ----------\n');
for (const chunk of SIGNED_IN_CHUNKS) {
  const files = assets.filter((file) => isChunk(`/assets/${file}`, chunk));
  let bytes = 0;
  for (const file of files) bytes += await gzippedSize(path.join(webDistDir, 'assets', file));
  chunkSizes[chunk] = files.length === 0 ? null : bytes;
  process.stdout.write(`${chunk.padEnd(22)}  ${files.length === 0 ? 'not built' : `${(bytes / KB).toFixed(1)} KB`}\n`);
}

await mkdir(path.dirname(options.json), { recursive: true });
await writeFile(
  options.json,
  `${JSON.stringify(
    {
      generatedAt: new Date().toISOString(),
      lighthouse: options['chunks-only']
        ? null
        : { runsPerPage: runs, emulation: 'mobile (Lighthouse default)', protocol: options.protocol, servedOver },
      targets: TARGETS,
      pages: results,
      interactions: { targetMs: INP_TARGET_MS, cpuSlowdown: 4, results: interactions },
      firstChart: firstChart
        ? { path: FIRST_CHART_PATH, targetMs: FIRST_CHART_TARGET_MS, cpuSlowdown: 4, ...firstChart }
        : null,
      preview: preview ? { targetMs: PREVIEW_TARGET_MS, ...preview } : null,
      signedInChunkGzipBytes: chunkSizes,
    },
    null,
    2,
  )}\n`,
);
process.stdout.write(`\nJSON: ${path.relative(process.cwd(), options.json)}\n`);
