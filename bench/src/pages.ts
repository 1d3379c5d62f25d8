import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TargetCheck } from './report.js';

/**
 * The page targets, by the page audit itself (`npm run audit:pages`, apps/e2e/scripts/audit-pages.ts:
 * Lighthouse in Debian's Chromium, the median of several runs per page, over HTTP/2 through nginx):
 * the bench builds the whole tree, runs the audit as a child process (its table goes to this run's
 * output), and turns the JSON it writes into PASS/MISS lines beside the others. The audit's own
 * JSON holds the targets, so they are written down in one place.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

type Category = 'performance' | 'accessibility' | 'best-practices' | 'seo';
type Group = 'marketing' | 'auth' | 'settings' | 'admin' | 'studio';

/** What the bench reads of the audit's JSON (the whole file is kept beside the bench's own). */
interface AuditJson {
  lighthouse: { runsPerPage: number; protocol: 'h2' | 'http1' } | null;
  targets: Record<Group, { floors: Partial<Record<Category, number>>; maxJsBytes?: number; noSignedInChunk: boolean }>;
  pages: {
    group: Group;
    path: string;
    jsGzipBytes: number;
    /** Of jsGzipBytes, the chart library's chunk; absent from audits written before it was told apart. */
    chartLibraryGzipBytes?: number;
    signedInChunks: string[];
    median?: Record<Category, number>;
  }[];
  /** Absent from audits written before the interactions were measured. */
  interactions?: {
    targetMs: number;
    cpuSlowdown: number;
    results: { name: string; samples: number[]; median: number }[];
  };
  firstChart?: { path: string; targetMs: number; cpuSlowdown: number; samples: number[]; median: number } | null;
  /** The report editor's preview after an edit; absent from audits written before it was measured. */
  preview?: { targetMs: number; samples: number[]; median: number } | null;
}

export interface PageRuns {
  runsPerPage: number;
  audit: AuditJson;
}

const GROUP_NAMES: Record<Group, string> = {
  marketing: 'marketing pages',
  auth: 'auth screens',
  settings: 'signed-in tabs (/settings)',
  admin: 'signed-in tabs (/admin)',
  studio: 'Studio (report list, a report, the agent)',
};
const CATEGORY_NAMES: Record<Category, string> = {
  performance: 'performance',
  accessibility: 'accessibility',
  'best-practices': 'best practices',
  seo: 'SEO',
};
const PROTOCOL_NAMES = { h2: 'HTTP/2 over TLS', http1: 'HTTP/1.1' } as const;
const KB = 1024;

/** Runs npm in the repository; `quiet`: its output is shown only if it fails. */
function npm(args: string[], quiet = false): void {
  const result = spawnSync('npm', args, {
    cwd: ROOT,
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    if (quiet) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    throw new Error(`npm ${args.join(' ')} failed (exit ${result.status})`);
  }
}

/** Builds the tree (not timed: the audit needs the web app, which the other scenarios do not) and audits it. */
export function measurePages(options: { runsPerPage: number; log: (line: string) => void }): PageRuns {
  options.log('building the tree for the page audit (npm run build) ...');
  npm(['run', 'build'], true);
  const dir = mkdtempSync(path.join(tmpdir(), 'dp-bench-pages-'));
  try {
    const json = path.join(dir, 'audit-pages.json');
    npm(['run', 'audit:pages', '--', `--runs=${options.runsPerPage}`, `--json=${json}`]);
    return { runsPerPage: options.runsPerPage, audit: JSON.parse(readFileSync(json, 'utf8')) as AuditJson };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `low–high` of numbers, or the one number when they are all the same. */
function span(values: number[], format: (value: number) => string = String): string {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? format(low) : `${format(low)}–${format(high)}`;
}

/** Per group: the judged scores (median per page), the first-load JavaScript and, on public pages, no console chunk. */
export function checkPageTargets(runs: PageRuns): TargetCheck[] {
  const { audit } = runs;
  const checks: TargetCheck[] = [];
  for (const group of Object.keys(GROUP_NAMES) as Group[]) {
    const pages = audit.pages.filter((page) => page.group === group);
    if (pages.length === 0) continue;
    const target = audit.targets[group];
    const name = `${GROUP_NAMES[group]}, ${pages.length}`;
    const floors = Object.entries(target.floors) as [Category, number][];

    const scored = pages.filter((page) => page.median !== undefined);
    if (scored.length === pages.length) {
      const under = scored.flatMap((page) =>
        floors
          .filter(([category, floor]) => page.median![category] < floor)
          .map(([category]) => `${page.path} ${CATEGORY_NAMES[category]} ${page.median![category]}`),
      );
      checks.push({
        name: `${name}: ${floors.map(([category, floor]) => `${CATEGORY_NAMES[category]} ≥ ${floor}`).join(', ')}`,
        measured:
          floors
            .map(([category]) => `${CATEGORY_NAMES[category]} ${span(scored.map((page) => page.median![category]))}`)
            .join(', ') +
          ` (median of ${runs.runsPerPage} per page, ${PROTOCOL_NAMES[audit.lighthouse?.protocol ?? 'http1']})` +
          (under.length > 0 ? `; under: ${under.join('; ')}` : ''),
        pass: under.length === 0,
      });
    }

    // A report viewer's budget is what it loads before the chart library (issue 32).
    const budgeted = (page: AuditJson['pages'][number]) => page.jsGzipBytes - (page.chartLibraryGzipBytes ?? 0);
    const bytes = pages.map(budgeted);
    const largest = pages.reduce((most, page) => (budgeted(page) > budgeted(most) ? page : most));
    const kb = (value: number) => `${(value / KB).toFixed(1)} KB`;
    const withChart = pages.filter((page) => (page.chartLibraryGzipBytes ?? 0) > 0);
    if (target.maxJsBytes !== undefined) {
      checks.push({
        name:
          `${name}: first-load JavaScript ≤ ${target.maxJsBytes / KB} KB gzipped` +
          (withChart.length > 0 ? ' (a report: before the chart library)' : ''),
        measured:
          `${span(bytes, kb)} (largest: ${largest.path})` +
          withChart.map((page) => `; ${page.path} with the chart library ${kb(page.jsGzipBytes)}`).join(''),
        pass: budgeted(largest) <= target.maxJsBytes,
      });
    }
    if (target.noSignedInChunk) {
      const loading = pages.filter((page) => page.signedInChunks.length > 0);
      checks.push({
        name: `${name}: no signed-in chunk in the first load`,
        measured:
          loading.length === 0
            ? 'none on any page'
            : loading.map((page) => `${page.path}: ${page.signedInChunks.join(' ')}`).join('; '),
        pass: loading.length === 0,
      });
    }
  }
  if (audit.firstChart) {
    const chart = audit.firstChart;
    checks.push({
      name: `first chart on ${chart.path} ≤ ${chart.targetMs} ms`,
      measured: `${chart.median} ms (median of ${chart.samples.join(', ')}; CPU ${chart.cpuSlowdown}× slower)`,
      pass: chart.median <= chart.targetMs,
    });
  }
  for (const interaction of audit.interactions?.results ?? []) {
    checks.push({
      name: `interaction to next paint, ${interaction.name} ≤ ${audit.interactions!.targetMs} ms`,
      measured: `${interaction.median} ms (median of ${interaction.samples.join(', ')}; CPU ${audit.interactions!.cpuSlowdown}× slower)`,
      pass: interaction.median <= audit.interactions!.targetMs,
    });
  }
  if (audit.preview) {
    checks.push({
      name: `editor preview of an edited block ≤ ${audit.preview.targetMs} ms after typing stops`,
      measured: `${audit.preview.median} ms (median of ${audit.preview.samples.join(', ')}; demo source)`,
      pass: audit.preview.median <= audit.preview.targetMs,
    });
  }
  return checks;
}
