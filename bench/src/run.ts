import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { measureEmbedded, type EmbeddedRuns } from './embedded.js';
import { createBenchDatabase, createBenchUser, type BenchDatabase, type BenchUser } from './fixture.js';
import { runLists, type ListsRuns } from './lists-run.js';
import { checkOnce, measureInTurn, pairedRatio, type LoadSpec, type Measurement } from './load.js';
import { checkPageTargets, measurePages, type PageRuns } from './pages.js';
import { checkWebSourceTargets } from './web-source.js';
import type { HashRunResult } from './protocol.js';
import {
  formatChecks,
  formatDiagnosis,
  formatLists,
  formatPlans,
  formatResults,
  hashResult,
  httpResult,
  type ScenarioResult,
} from './report.js';
import { loadSettings, type BenchSettings } from './settings.js';
import { checkStudioTargets, runStudio, type StudioRuns } from './studio.js';
import { checkAgentTargets, runAgent, type AgentRuns } from './agent.js';
import { checkSharingTargets, runSharing, type SharingRuns } from './sharing.js';
import { checkScheduleTargets, runSchedules, type ScheduleRuns } from './schedules.js';
import {
  checkBigUploadTargets,
  checkStorageTargets,
  runStudioBigUpload,
  runStudioStorage,
  type BigUploadRuns,
  type StorageRuns,
} from './studio-storage.js';
import { startTarget, stopAllTargets, type TargetName, type TargetProcess } from './target-process.js';
import { checkEmbeddedTargets, checkListTargets, checkTargets } from './targets-check.js';

/**
 * `npm run bench`: the floor, our users/me, our login and the raw argon2id rate, one after another
 * against one fresh database on one PostgreSQL server, each target in a process of its own; then
 * every list at 1 000 and 100 000 rows, the embedded server's start and memory, and the page audit.
 */

const out = (text = '') => process.stdout.write(`${text}\n`);

function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

function hasEmail(email: string) {
  return (body: unknown) => typeof body === 'object' && body !== null && (body as { email?: unknown }).email === email;
}

interface Runs {
  floor?: Measurement;
  usersMe?: Measurement;
  loginFloor?: Measurement;
  login?: Measurement;
  /** Raw hash runs: one right before login (when both run) and one after, to bracket it. */
  hashes: HashRunResult[];
  lists?: ListsRuns;
  studio?: StudioRuns;
  agent?: AgentRuns;
  sharing?: SharingRuns;
  schedules?: ScheduleRuns;
  studioStorage?: StorageRuns;
  studioBigUpload?: BigUploadRuns;
  embedded?: EmbeddedRuns;
  pages?: PageRuns;
}

interface ScenarioContext {
  settings: BenchSettings;
  databaseUrl: string;
  probe: TargetProcess;
}

interface HttpScenario {
  scenario: string;
  target: TargetName;
  specFor: (port: number) => LoadSpec;
  expect: (body: unknown) => boolean;
}

/**
 * A fresh server process per scenario, so each peak RSS is that scenario's own. A floor and the
 * endpoint judged against it run side by side and are measured in turn, round after round
 * (`measureInTurn`): their ratio is the figure judged.
 */
async function httpScenariosInTurn(
  context: ScenarioContext,
  scenarios: readonly HttpScenario[],
): Promise<Measurement[]> {
  const children = scenarios.map(({ scenario, target }) =>
    startTarget(target, { scenario, env: { BENCH_TARGET_DATABASE_URL: context.databaseUrl } }),
  );
  try {
    const measured = [];
    for (const [index, child] of children.entries()) {
      const { port } = await child.next('ready');
      const spec = scenarios[index]!.specFor(port);
      await checkOnce(spec, scenarios[index]!.expect);
      measured.push({ target: child, spec });
    }
    const rounds = scenarios.length > 1 ? context.settings.pairedRounds : 1;
    return await measureInTurn(measured, context.probe, context.settings, rounds);
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}

async function hashScenario(settings: BenchSettings): Promise<HashRunResult> {
  const hasher = startTarget('argon2-hasher', {
    scenario: 'argon2id',
    env: {},
    args: [
      JSON.stringify({
        warmupSeconds: settings.warmupSeconds,
        seconds: settings.durationSeconds,
        concurrency: settings.hashConcurrency,
      }),
    ],
  });
  const timeoutMs = (settings.warmupSeconds + settings.durationSeconds) * 1000 + 60_000;
  try {
    return (await hasher.next('hash-result', timeoutMs)).result;
  } finally {
    await hasher.stop();
  }
}

async function runScenarios(
  settings: BenchSettings,
  database: BenchDatabase,
  user: BenchUser,
  track: (database: BenchDatabase) => void,
): Promise<Runs> {
  const selected = new Set(settings.scenarios);
  const bearer = { authorization: `Bearer ${user.token}` };
  const probe = startTarget('idle-probe', { env: {} });
  await probe.next('ready');
  const context: ScenarioContext = { settings, databaseUrl: database.url, probe };
  const runs: Runs = { hashes: [] };

  /** The selected ones of a floor and its endpoint, measured in turn; answers them in that order. */
  const floorAndEndpoint = async (floor: HttpScenario | null, endpoint: HttpScenario | null) => {
    const chosen = [floor, endpoint].filter((scenario) => scenario !== null);
    const measured = chosen.length > 0 ? await httpScenariosInTurn(context, chosen) : [];
    return [floor ? measured.shift() : undefined, endpoint ? measured.shift() : undefined] as const;
  };

  const currentUser = (path: string) => (port: number) => ({
    url: `http://127.0.0.1:${port}${path}`,
    method: 'GET' as const,
    headers: bearer,
    connections: settings.connections,
  });
  if (selected.has('floor')) out(`floor: bare Fastify + fast-jwt + pg, ${settings.connections} connections ...`);
  if (selected.has('users-me')) out(`GET /api/v1/users/me, ${settings.connections} connections ...`);
  [runs.floor, runs.usersMe] = await floorAndEndpoint(
    selected.has('floor')
      ? { scenario: 'floor', target: 'floor-server', specFor: currentUser('/me'), expect: hasEmail(user.email) }
      : null,
    selected.has('users-me')
      ? {
          scenario: 'users-me',
          target: 'app-server',
          specFor: currentUser('/api/v1/users/me'),
          expect: hasEmail(user.email),
        }
      : null,
  );

  const loginForm = (path: string) => (port: number) => ({
    url: `http://127.0.0.1:${port}${path}`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: user.email, password: user.password }).toString(),
    connections: settings.loginConnections,
  });
  const hasAccessToken = (body: unknown) =>
    typeof (body as { access_token?: unknown } | undefined)?.access_token === 'string';
  const anyLogin = selected.has('login') || selected.has('login-floor');

  // The machine's speed drifts by several per cent within a minute, so the raw rate is measured
  // right before and right after the logins, and they are compared with its mean.
  if (anyLogin && selected.has('argon2id')) {
    out(`argon2id raw hash rate, ${settings.hashConcurrency} callers (before login) ...`);
    runs.hashes.push(await hashScenario(settings));
  }

  if (selected.has('login-floor')) {
    out(`login floor: bare Fastify + argon2id + pg, ${settings.loginConnections} connections ...`);
  }
  if (selected.has('login')) out(`POST /api/v1/login/access-token, ${settings.loginConnections} connections ...`);
  [runs.loginFloor, runs.login] = await floorAndEndpoint(
    selected.has('login-floor')
      ? { scenario: 'login-floor', target: 'floor-server', specFor: loginForm('/login'), expect: hasAccessToken }
      : null,
    selected.has('login')
      ? {
          scenario: 'login',
          target: 'app-server',
          specFor: loginForm('/api/v1/login/access-token'),
          expect: hasAccessToken,
        }
      : null,
  );

  if (selected.has('argon2id')) {
    const when = anyLogin ? ' (after login)' : '';
    out(`argon2id raw hash rate, ${settings.hashConcurrency} callers${when} ...`);
    runs.hashes.push(await hashScenario(settings));
  }

  if (selected.has('lists')) {
    const [small, large] = settings.listRows;
    out(`lists at ${small} and ${large} rows, ${settings.connections} connections ...`);
    runs.lists = await runLists({ settings, track, out });
  }

  await probe.stop();

  // Studio's engine through the API against the same SQL run directly (issue 31, "Performance").
  if (selected.has('studio')) {
    out(
      `studio: ${settings.studio.demoRows} demo rates, ${settings.studio.tenantRows} tenant rows, ${settings.studio.rounds} rounds ...`,
    );
    runs.studio = await runStudio({ settings, track, out });
  }
  // Extracts read from a folder and from an S3-compatible store (issue 61).
  if (selected.has('studio-storage')) {
    out('studio-storage: file:// against s3:// (s3rver on loopback), cold and warm ...');
    runs.studioStorage = await runStudioStorage({ settings, track, out });
  }
  if (selected.has('studio-10g')) {
    runs.studioBigUpload = await runStudioBigUpload({ settings, track, out });
  }

  // The agent's own time, its model a scripted server answering at once (issue 56, "Performance").
  if (selected.has('agent')) {
    out(`agent: ${settings.studio.demoRows} demo rates, a scripted model ...`);
    runs.agent = await runAgent({ settings, track, out });
  }

  // Share links under a crowd, and an embedded run against a signed-in one (issue 58, "Performance").
  if (selected.has('sharing')) {
    out(`sharing: ${settings.studio.demoRows} demo rates ...`);
    runs.sharing = await runSharing({ settings, track, out });
  }

  // A scheduled delivery of the payer report, moved by the sandbox clock (issue 59, "Performance").
  if (selected.has('schedules')) {
    out('schedules: the payer report mailed daily, the sandbox clock moved a day at a time ...');
    runs.schedules = await runSchedules({ settings, track, out });
  }

  // Last and alone: the embedded server's start is timed, and nothing else of the bench runs meanwhile.
  if (selected.has('embedded')) {
    out('embedded server: `npm run serve -w apps/server` to the first 200 on /readyz, then idle ...');
    runs.embedded = await measureEmbedded({
      newRuns: settings.embeddedNewRuns,
      existingRuns: settings.embeddedExistingRuns,
      idleSeconds: settings.embeddedIdleSeconds,
      log: out,
    });
  }

  // The page audit: Lighthouse is timed in its own way (a simulation from a trace), after the rest.
  if (selected.has('pages')) {
    out(`pages: npm run audit:pages, ${settings.pageRuns} Lighthouse runs per page ...`);
    runs.pages = measurePages({ runsPerPage: settings.pageRuns, log: out });
  }
  return runs;
}

function toResults(runs: Runs): ScenarioResult[] {
  const results: ScenarioResult[] = [];
  if (runs.floor) results.push(httpResult('floor', 'floor: Fastify + fast-jwt + pg', runs.floor, 1));
  if (runs.usersMe) {
    const ratio = runs.floor ? pairedRatio(runs.usersMe, runs.floor).median : null;
    results.push(httpResult('users-me', 'GET /api/v1/users/me', runs.usersMe, ratio));
  }
  if (runs.loginFloor) {
    results.push(httpResult('login-floor', 'login floor: Fastify + argon2id + pg', runs.loginFloor, null));
  }
  if (runs.login) results.push(httpResult('login', 'POST /api/v1/login/access-token', runs.login, null));
  const bracketing = runs.hashes.length === 2;
  runs.hashes.forEach((hash, index) => {
    const when = bracketing ? (index === 0 ? 'before login' : 'after login') : null;
    results.push(hashResult(hash, when));
  });
  return results;
}

async function main(): Promise<void> {
  const settings = loadSettings();
  const startedAt = new Date();
  const loadBefore = os.loadavg();
  const loadText = (load: number[]) => load.map((value) => value.toFixed(2)).join(' ');
  out(
    `bench ${startedAt.toISOString()}: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}`,
  );
  out(
    `${settings.durationSeconds} s per scenario after ${settings.warmupSeconds} s warm-up; load average before: ${loadText(loadBefore)}`,
  );

  const database = await createBenchDatabase(settings.databaseUrl);
  const databases = [database];
  const dropAll = () => Promise.all(databases.map((each) => each.drop()));
  let interrupted = false;
  const stopOnSignal = () => {
    // Ctrl-C reaches us twice (from the terminal and relayed by tsx): a second default SIGINT would
    // kill the process before the database is dropped.
    if (interrupted) return;
    interrupted = true;
    out('\ninterrupted: stopping targets and dropping the bench databases');
    void stopAllTargets()
      .then(dropAll)
      .finally(() => process.exit(130));
  };
  process.on('SIGINT', stopOnSignal);
  process.on('SIGTERM', stopOnSignal);

  let runs: Runs;
  try {
    const user = await createBenchUser(database.url);
    runs = await runScenarios(settings, database, user, (each) => databases.push(each));
  } finally {
    await stopAllTargets();
    await dropAll();
  }
  const loadAfter = os.loadavg();
  const results = toResults(runs);
  const checks = [
    ...checkTargets(runs),
    ...(runs.lists ? checkListTargets(runs.lists) : []),
    ...(runs.studio ? checkStudioTargets(runs.studio) : []),
    ...(runs.agent ? checkAgentTargets(runs.agent) : []),
    ...(runs.sharing ? checkSharingTargets(runs.sharing) : []),
    ...(runs.schedules ? checkScheduleTargets(runs.schedules) : []),
    ...(runs.studioStorage ? checkStorageTargets(runs.studioStorage) : []),
    ...(runs.studioBigUpload ? checkBigUploadTargets(runs.studioBigUpload) : []),
    ...(runs.embedded ? checkEmbeddedTargets(runs.embedded) : []),
    ...(runs.pages ? [...checkPageTargets(runs.pages), ...checkWebSourceTargets()] : []),
  ];

  out();
  if (results.length > 0) out(formatResults(results));
  if (runs.lists) {
    out();
    out(formatLists(runs.lists));
    out();
    out(`EXPLAIN (ANALYZE, BUFFERS) at ${runs.lists.fixtures[1].rows} rows, the plan's top node and what it read:`);
    out(formatPlans(runs.lists));
  }
  if (checks.length > 0) {
    out();
    out(formatChecks(checks));
  }
  if (results.length > 0) {
    out();
    out(formatDiagnosis(results));
  }
  const failed = [
    ...results.filter((result) => result.failures > 0).map((result) => result.label),
    ...(runs.lists?.runs ?? []).flatMap((run) =>
      (
        [
          ['small', run.small],
          ['large', run.large],
        ] as const
      )
        .filter(([, load]) => load.non2xx + load.errors > 0)
        .map(([size, load]) => `${run.scenario.label} (${size}: ${load.non2xx} non-2xx, ${load.errors} errors)`),
    ),
  ];
  if (results.some((result) => !result.target.peakRssSinceReset)) {
    out('* the kernel did not reset VmHWM for this target: its peak RSS covers its whole life');
  }
  out(`load average after: ${loadText(loadAfter)}`);
  const seconds = (Date.now() - startedAt.getTime()) / 1000;
  out(`total run time: ${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`);

  const resultsDir = new URL('../results/', import.meta.url);
  mkdirSync(resultsDir, { recursive: true });
  const file = new URL(`bench-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`, resultsDir);
  const report = {
    startedAt: startedAt.toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      totalMemoryBytes: os.totalmem(),
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAfter,
      node: process.version,
      postgres: database.serverVersion,
    },
    settings: { ...settings, databaseUrl: withoutPassword(settings.databaseUrl) },
    results,
    lists: runs.lists && {
      fixtures: runs.lists.fixtures,
      scenarios: runs.lists.runs.map((run) => ({
        id: run.scenario.id,
        label: run.scenario.label,
        targeted: run.scenario.targeted,
        paths: run.paths,
        small: run.small,
        large: run.large,
        ratio: run.large.requestsPerSecond / run.small.requestsPerSecond,
        explained: run.explained,
      })),
    },
    studio: runs.studio,
    agent: runs.agent,
    sharing: runs.sharing,
    schedules: runs.schedules,
    studioStorage: runs.studioStorage,
    studioBigUpload: runs.studioBigUpload,
    embedded: runs.embedded,
    pages: runs.pages?.audit,
    targets: checks,
    failed,
    totalSeconds: seconds,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  out(`results: ${file.pathname}`);
  // A benchmark of error answers is no benchmark: say so, and fail the run.
  if (failed.length > 0) {
    out(`\nFAILED: non-2xx answers or socket errors in: ${failed.join('; ')}`);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
