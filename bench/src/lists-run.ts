import { createBenchDatabase, createBenchUser, type BenchDatabase } from './fixture.js';
import { explainList, type ExplainedQuery } from './explain.js';
import { fillLists, type ListsFixture } from './lists-fixture.js';
import { LIST_PAGE_SIZE, LIST_SCENARIOS, type ListScenario } from './lists.js';
import { checkOnce, fire, warmUp, type LoadResult, type LoadSpec } from './load.js';
import { median } from './stats.js';
import type { BenchSettings } from './settings.js';
import { startTarget, type TargetProcess } from './target-process.js';

/**
 * One size of a list scenario over all its rounds, in a load run's words: its 2xx answers per second
 * over all rounds, the medians of the rounds' latency percentiles, and the counts summed.
 */
export interface ListLoad extends Omit<LoadResult, 'connections'> {
  /** Each round's rate, in order. */
  roundsPerSecond: number[];
}

export interface ListRun {
  scenario: ListScenario;
  /** The request at each size (the middle page's skip differs). */
  paths: [small: string, large: string];
  small: ListLoad;
  large: ListLoad;
  /** Every query of the list at the large size, explained (ANALYZE, BUFFERS). */
  explained: ExplainedQuery[];
}

export interface ListsRuns {
  fixtures: [small: ListsFixture, large: ListsFixture];
  runs: ListRun[];
}

interface Sized {
  database: BenchDatabase;
  fixture: ListsFixture;
  readerId: string;
  token: string;
  server: TargetProcess;
  port: number;
}

/** What a list answer must be: the exact count, and the page the skip asks for. */
function expectPage(path: string, count: number) {
  const skip = Number(new URLSearchParams(path.split('?')[1]).get('skip') ?? 0);
  const length = Math.max(0, Math.min(LIST_PAGE_SIZE, count - skip));
  return (body: unknown) => {
    const page = body as { count?: unknown; data?: unknown[] } | undefined;
    return page?.count === count && Array.isArray(page.data) && page.data.length === length;
  };
}

/**
 * The two sizes in turn, round after round (small, large, small, large, …), so that what the rest
 * of the machine does in those seconds weighs on both alike: their ratio is the figure judged.
 */
async function interleaved(specs: LoadSpec[], settings: BenchSettings): Promise<ListLoad[]> {
  for (const spec of specs) await fire(spec, settings.listWarmupSeconds);
  const rounds = specs.map(() => [] as Awaited<ReturnType<typeof fire>>[]);
  for (let round = 0; round < settings.listRounds; round += 1) {
    for (const [index, spec] of specs.entries()) rounds[index]!.push(await fire(spec, settings.listDurationSeconds));
  }
  return rounds.map((results) => {
    const seconds = results.reduce((sum, result) => sum + (result.duration || settings.listDurationSeconds), 0);
    const ok = results.reduce((sum, result) => sum + result['2xx'], 0);
    return {
      requestsPerSecond: ok / seconds,
      roundsPerSecond: results.map((result) => result['2xx'] / (result.duration || settings.listDurationSeconds)),
      p50Ms: median(results.map((result) => result.latency.p50)),
      p99Ms: median(results.map((result) => result.latency.p99)),
      ok,
      non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
      errors: results.reduce((sum, result) => sum + result.errors, 0),
      seconds,
    };
  });
}

/**
 * Every list scenario at both sizes, each database filled by SQL and served by its own server,
 * the two sizes measured in alternating rounds.
 */
export async function runLists(context: {
  settings: BenchSettings;
  /** Called with each database made, so the caller drops it whatever happens. */
  track: (database: BenchDatabase) => void;
  out: (line: string) => void;
}): Promise<ListsRuns> {
  const { settings, out } = context;
  const sized: Sized[] = [];
  try {
    for (const [index, rows] of settings.listRows.entries()) {
      const database = await createBenchDatabase(settings.databaseUrl, index === 0 ? '_small' : '_large');
      context.track(database);
      const reader = await createBenchUser(database.url, { superuser: true });
      const fixture = await fillLists(database.url, rows, reader.id);
      out(`lists: ${rows} rows in each listed table, generated in ${fixture.seconds.toFixed(1)} s`);
      const server = startTarget('app-server', {
        scenario: `lists-${rows}`,
        env: { BENCH_TARGET_DATABASE_URL: database.url },
      });
      sized.push({ database, fixture, readerId: reader.id, token: reader.token, server, port: 0 });
      sized[index]!.port = (await server.next('ready')).port;
    }
    const [small, large] = sized as [Sized, Sized];
    // The first scenarios would otherwise run on code the JIT has not seen yet.
    for (const size of sized) {
      await warmUp(
        `http://127.0.0.1:${size.port}/api/v1`,
        LIST_SCENARIOS.map((scenario) => scenario.path(size.fixture)),
        { authorization: `Bearer ${size.token}` },
        settings.connections,
        settings.listWarmupSeconds * 2,
      );
    }

    const runs: ListRun[] = [];
    for (const scenario of LIST_SCENARIOS) {
      const paths = [small, large].map((size) => scenario.path(size.fixture));
      const specs = [small, large].map((size, index): LoadSpec => ({
        url: `http://127.0.0.1:${size.port}/api/v1${paths[index]}`,
        method: 'GET',
        headers: { authorization: `Bearer ${size.token}` },
        connections: settings.connections,
      }));
      out(`${scenario.label}: ${paths.join(' | ')}`);
      for (const [index, size] of [small, large].entries()) {
        await checkOnce(specs[index]!, expectPage(paths[index]!, scenario.count(size.fixture)));
      }
      const measured = await interleaved(specs, settings);
      const explained = await explainList(large.database.url, (db) =>
        scenario.query(db, large.fixture, large.readerId),
      );
      runs.push({
        scenario,
        paths: paths as [string, string],
        small: measured[0]!,
        large: measured[1]!,
        explained,
      });
    }
    return { fixtures: [small.fixture, large.fixture], runs };
  } finally {
    await Promise.all(sized.map((size) => size.server.stop()));
  }
}
