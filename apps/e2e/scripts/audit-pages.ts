// `npm run audit:pages`: Lighthouse (Debian's Chromium) over every marketing page of the
// production build; prints the four category scores and the gzipped JavaScript each page loads
// before any interaction, and flags a signed-in area chunk in a marketing page's first load.
// A report, not a test: targets are >= 95 per score and <= 150 KB of gzipped JavaScript.
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { repoRoot, startAppServer, webDistDir } from '../support/app-server.js';

const run = promisify(execFile);
const PAGES = [
  '/studio',
  '/about-us',
  '/data-engineering',
  '/high-scale-tableau',
  '/transparency-pipeline',
  '/contact',
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const SIGNED_IN_CHUNKS = ['settings-area', 'admin-area', 'query-client'];
const chromePath = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// AUDIT_REPORT_DIR=<folder> keeps each page's full Lighthouse JSON there, to see why a score fell.
const reportDir = process.env.AUDIT_REPORT_DIR;

interface LighthouseReport {
  categories: Record<(typeof CATEGORIES)[number], { score: number | null }>;
  audits: { 'network-requests'?: { details?: { items?: { url: string; resourceType?: string }[] } } };
}

async function gzippedSize(file: string): Promise<number> {
  return gzipSync(await readFile(file), { level: 9 }).length;
}

async function auditOnce(url: string): Promise<string> {
  const { stdout } = await run(
    path.join(repoRoot, 'node_modules/.bin/lighthouse'),
    [
      url,
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      `--only-categories=${CATEGORIES.join(',')}`,
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
    ],
    { env: { ...process.env, CHROME_PATH: chromePath }, maxBuffer: 256 * 1024 * 1024 },
  );
  return stdout;
}

/** Lighthouse now and then fails a run on a busy machine (NO_NAVSTART, an interstitial): try again. */
async function audit(url: string): Promise<LighthouseReport> {
  let stdout: string | undefined;
  for (let attempt = 1; stdout === undefined; attempt += 1) {
    try {
      stdout = await auditOnce(url);
    } catch (error) {
      if (attempt === 3) throw error;
      process.stderr.write(`lighthouse failed on ${url} (attempt ${attempt}), trying again\n`);
    }
  }
  if (reportDir) {
    await mkdir(reportDir, { recursive: true });
    const name = new URL(url).pathname.slice(1).replaceAll('/', '_') || 'index';
    await writeFile(path.join(reportDir, `${name}.json`), stdout);
  }
  return JSON.parse(stdout) as LighthouseReport;
}

const app = await startAppServer();
const rows: string[][] = [];
let missed = 0;
try {
  for (const page of PAGES) {
    const report = await audit(`${app.baseUrl}${page}`);
    const scripts = (report.audits['network-requests']?.details?.items ?? [])
      .filter((item) => item.resourceType === 'Script')
      .map((item) => new URL(item.url).pathname);
    let jsBytes = 0;
    for (const script of scripts) jsBytes += await gzippedSize(path.join(webDistDir, script));
    const signedIn = scripts.filter((script) => SIGNED_IN_CHUNKS.some((chunk) => script.includes(chunk)));
    const scores = CATEGORIES.map((category) => Math.round((report.categories[category].score ?? 0) * 100));
    if (scores.some((score) => score < 95) || jsBytes > 150 * 1024 || signedIn.length > 0) missed += 1;
    rows.push([
      page,
      ...scores.map(String),
      `${(jsBytes / 1024).toFixed(1)} KB (${scripts.length} files)`,
      signedIn.length === 0 ? 'none' : signedIn.join(' '),
    ]);
  }
} finally {
  await app.stop();
}

const header = ['page', ...CATEGORIES, 'JS gzipped, first load', 'signed-in chunks'];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
process.stdout.write(`${line(header)}\n${line(widths.map((width) => '-'.repeat(width)))}\n`);
for (const row of rows) process.stdout.write(`${line(row)}\n`);
process.stdout.write(
  missed === 0
    ? '\nEvery page meets the targets (scores >= 95, <= 150 KB gzipped JS, no signed-in chunk).\n'
    : `\n${missed} page(s) miss a target (scores >= 95, <= 150 KB gzipped JS, no signed-in chunk).\n`,
);
