// The last step of `react-router build` (its `buildEnd`, react-router.config.ts): moves the client
// build into BUILD_OUT_DIR (the folder scripts/build.mjs renames into place), lists the hashes of
// the inline scripts the pages carry for the server's Content-Security-Policy, holds the app's
// scripts of the pages that run it on the first interaction, writes sitemap.xml and robots.txt from
// the route table, and compressed copies of the text files.
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { MARKETING_PATHS, ON_INTERACTION_PATHS } from '../src/config/route-table.js';

/** Where the server finds the hashes (apps/server/src/plugins/static.ts reads the same name). */
const INLINE_SCRIPT_HASHES_FILE = 'csp-script-hashes.json';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** The hash of every inline script of every page: the pre-paint script, React Router's context and module loader. */
async function inlineScriptHashes(pages: string[]): Promise<string[]> {
  const hashes = new Set<string>();
  for (const page of pages) {
    const html = await readFile(page, 'utf8');
    for (const [, attributes = '', body = ''] of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
      if (/\ssrc=/.test(attributes)) continue;
      hashes.add(`sha256-${createHash('sha256').update(body).digest('base64')}`);
    }
  }
  return [...hashes].sort();
}

const MODULE_PRELOAD = /<link rel="modulepreload" href="[^"]+"\/>/g;
const MODULE_SCRIPT = /<script type="module" async="">[\s\S]*?<\/script>/g;

/**
 * A page that runs the app on the person's first interaction (decision 058): React Router's module
 * script (which imports the route modules and starts the app) and its preload links go into a
 * <template>, where the browser neither fetches nor runs them; platform-ui.js puts them back in the
 * template's place then. React Router's inline context and data scripts stay: they fetch nothing.
 */
export function holdAppScripts(html: string, page: string): string {
  const preloads = html.match(MODULE_PRELOAD) ?? [];
  const scripts = html.match(MODULE_SCRIPT) ?? [];
  // React Router's markup changed: better a failed build than a page that runs the app at load.
  if (preloads.length === 0 || scripts.length !== 1) {
    throw new Error(`finish-build: ${page}: expected React Router's preload links and one module script`);
  }
  return html
    .replace(MODULE_PRELOAD, '')
    .replace(MODULE_SCRIPT, () => `<template data-app-scripts="">${preloads.join('')}${scripts[0]}</template>`);
}

/**
 * Compressed copies beside the scripts and other text assets: the server sends them to browsers that
 * accept them (@fastify/static preCompressed), so nothing is compressed per request.
 */
async function compress(files: string[]): Promise<void> {
  for (const file of files) {
    if (!/\.(html|js|css|svg|xml|txt|json)$/.test(file)) continue;
    const content = await readFile(file);
    if (content.length < 1024) continue;
    await writeFile(`${file}.gz`, gzipSync(content, { level: 9 }));
    await writeFile(
      `${file}.br`,
      brotliCompressSync(content, {
        params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY },
      }),
    );
  }
}

/** `buildDirectory` is React Router's output (client/ and server/); `outDir` receives what the server serves. */
export async function finishBuild({ buildDirectory, outDir }: { buildDirectory: string; outDir: string }) {
  const siteUrl = (process.env.FRONTEND_HOST ?? 'http://localhost:8000').replace(/\/+$/, '');
  await rm(outDir, { recursive: true, force: true });
  await rename(path.join(buildDirectory, 'client'), outDir);
  await rm(buildDirectory, { recursive: true, force: true });

  const pages = (await filesUnder(outDir)).filter((file) => file.endsWith('.html'));
  if (!pages.includes(path.join(outDir, 'index.html'))) throw new Error('finish-build: no SPA fallback index.html');
  for (const page of ON_INTERACTION_PATHS) {
    const file = path.join(outDir, page, 'index.html');
    await writeFile(file, holdAppScripts(await readFile(file, 'utf8'), page));
  }
  await writeFile(path.join(outDir, INLINE_SCRIPT_HASHES_FILE), `${JSON.stringify(await inlineScriptHashes(pages))}\n`);

  const urls = MARKETING_PATHS.map((page) => `  <url><loc>${siteUrl}${page}</loc></url>`).join('\n');
  await writeFile(
    path.join(outDir, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
  );
  await writeFile(
    path.join(outDir, 'robots.txt'),
    `User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /settings\nDisallow: /api/\n\nSitemap: ${siteUrl}/sitemap.xml\n`,
  );
  await compress(await filesUnder(outDir));
  process.stdout.write(`finish-build: ${pages.length} pages in ${path.basename(outDir)}\n`);
}
