// Build step: renders each marketing page and auth screen to static HTML (dist/<page>/index.html)
// with its own title, description, critical CSS, the top bar's menus and drawer (in templates, on
// marketing pages) and the small script that drives them (src/prerendered.ts) instead of the app;
// then writes sitemap.xml (marketing pages only) and robots.txt. The server serves /about-us from
// dist/about-us/index.html; every other route gets the SPA shell, which starts the app.
// docs/decisions/011-web-prerendering.md, 024-lean-marketing-pages.md, 031-prerendered-auth-screens.md
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

// `npm run compile` (scripts/build.mjs) builds into BUILD_OUT_DIR, and the server bundle beside it.
const distDir = process.env.BUILD_OUT_DIR;
if (!distDir) throw new Error('prerender: BUILD_OUT_DIR is not set (build with `npm run build`)');
const ssrDir = `${distDir}.ssr`;
const ssrEntry = path.join(ssrDir, 'entry-server.js');
const siteUrl = (process.env.FRONTEND_HOST ?? 'http://localhost:8000').replace(/\/+$/, '');

function escapeHtml(text) {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A chunk and every chunk it imports statically, minus those in `loaded`. */
function chunksFor(manifest, key, loaded = new Set()) {
  const files = new Set();
  const visit = (id) => {
    const chunk = manifest[id];
    if (!chunk) throw new Error(`prerender: ${id} is not in Vite's manifest`);
    if (files.has(chunk.file) || loaded.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return [...files];
}

const modulePreloads = (files) => files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);

// The pre-paint script (colour scheme, `/` to /studio, the current tab in view) goes inline: as a
// file it would block the first paint on a request. The server allows exactly this script through
// its CSP hash (csp-script-hashes.json).
const PRE_PAINT_TAG = '<script src="/pre-paint.js"></script>';
const prePaintScript = (await readFile(path.join(distDir, 'pre-paint.js'), 'utf8'))
  .split('\n')
  .filter((line) => !line.trimStart().startsWith('//'))
  .map((line) => line.trim())
  .join('\n');
const prePaintHash = `sha256-${createHash('sha256').update(prePaintScript).digest('base64')}`;
const sourceTemplate = await readFile(path.join(distDir, 'index.html'), 'utf8');
if (!sourceTemplate.includes(PRE_PAINT_TAG)) throw new Error(`prerender: index.html lacks ${PRE_PAINT_TAG}`);
const template = sourceTemplate.replace(PRE_PAINT_TAG, `<script>${prePaintScript}</script>`);
await writeFile(path.join(distDir, 'csp-script-hashes.json'), `${JSON.stringify([prePaintHash])}\n`);
const manifestPath = path.join(distDir, '.vite', 'manifest.json');
const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
const { renderPage, renderFrame, pageMetaFor, MARKETING_PAGES, AUTH_PAGES, AREA_TAB_PATHS, PRERENDERED_MODULES } =
  await import(pathToFileURL(ssrEntry).href);
const PRERENDERED = [...MARKETING_PAGES, ...AUTH_PAGES];

// The SPA shell's entry (src/main.tsx) is Vite's script tag, plus preloads for its static imports.
const shellEntry = manifest['index.html'];
if (!shellEntry) throw new Error("prerender: index.html is not in Vite's manifest");
const shellEntryFiles = new Set(chunksFor(manifest, 'index.html'));
const SHELL_SCRIPTS = new RegExp(
  [...shellEntryFiles]
    .map(
      (file) =>
        `\\s*<(?:script type="module"|link rel="modulepreload")[^>]*"/${file.replaceAll('.', '\\.')}"[^>]*>(?:</script>)?`,
    )
    .join('|'),
  'g',
);
if (!template.match(SHELL_SCRIPTS)) throw new Error(`prerender: no script tag for ${shellEntry.file} in index.html`);

// A prerendered page gets the script of prerendered pages instead, with its static imports.
const pageScript = manifest['src/prerendered.ts'];
if (!pageScript) throw new Error("prerender: src/prerendered.ts is not in Vite's manifest");
const pageScriptTags = [
  `<script type="module" crossorigin src="/${pageScript.file}"></script>`,
  ...modulePreloads(chunksFor(manifest, 'src/prerendered.ts').filter((file) => file !== pageScript.file)),
].join('\n    ');

for (const page of PRERENDERED) {
  const moduleKey = PRERENDERED_MODULES[page.path];
  if (!moduleKey) throw new Error(`prerender: no source module listed for ${page.path}`);
  if (!manifest[moduleKey]) throw new Error(`prerender: ${moduleKey} is not in Vite's manifest`);
  const { html, overlays, styles } = await renderPage(page.path);
  const document = template
    .replace(SHELL_SCRIPTS, '')
    .replace(/<title>.*?<\/title>/s, `<title>${escapeHtml(page.title)}</title>`)
    .replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/s,
      `<meta name="description" content="${escapeHtml(page.description)}" />`,
    )
    .replace(
      '<!--app-head-->',
      `<link rel="canonical" href="${siteUrl}${page.path}" />\n    ${pageScriptTags}\n    ${styles}`,
    )
    .replace('<!--app-html-->', html)
    .replace('\n    <!--app-overlays-->', overlays ? `\n    <div data-static-overlays>${overlays}</div>` : '');
  const pageDir = path.join(distDir, page.path.slice(1));
  await mkdir(pageDir, { recursive: true });
  await writeFile(path.join(pageDir, 'index.html'), document);
}

// Each signed-in tab: the SPA shell with the tab's frame (top bar, heading, tab list, a loading
// line) painted at once, and preloads for the app, the area and the tab, which would otherwise
// load one after another; the app hydrates the frame, then renders the tab. Decision 032.
const bootFiles = chunksFor(manifest, 'src/boot.tsx', shellEntryFiles);
// The top bar's tenant switcher, which every signed-in tab shows: React.lazy would start its import
// in the middle of a render, and Vite's preload helper would add a link per chunk there (a long
// task); with its chunks preloaded here, the helper finds them and adds none.
const TENANT_SWITCHER = 'src/features/settings/components/tenant-switcher.tsx';
for (const tabPath of AREA_TAB_PATHS) {
  const meta = pageMetaFor(tabPath);
  const [, area, tab] = tabPath.split('/');
  const areaKey = `src/features/${area}/${area}-area.tsx`;
  const tabKey = `src/features/${area}/components/${tab}-tab.tsx`;
  // A tab the area holds itself (the profile) has no chunk of its own.
  const routeFiles = [areaKey, ...(manifest[tabKey] ? [tabKey] : []), TENANT_SWITCHER].flatMap((key) =>
    chunksFor(manifest, key, new Set([...shellEntryFiles, ...bootFiles])),
  );
  const preloads = modulePreloads([...new Set([...bootFiles, ...routeFiles])]).join('\n    ');
  const { html, styles } = await renderFrame(tabPath);
  const document = template
    .replace(/<title>.*?<\/title>/s, `<title>${escapeHtml(meta.title)}</title>`)
    .replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/s,
      `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    )
    .replace('<!--app-head-->', `${preloads}\n    ${styles}`)
    .replace('<div id="root"><!--app-html-->', `<div id="root" data-area-frame>${html}`)
    .replace('\n    <!--app-overlays-->', '');
  if (!document.includes('data-area-frame'))
    throw new Error('prerender: index.html lacks <div id="root"><!--app-html-->');
  const pageDir = path.join(distDir, tabPath.slice(1));
  await mkdir(pageDir, { recursive: true });
  await writeFile(path.join(pageDir, 'index.html'), document);
}

// The SPA shell for every other route: no prerendered markup, placeholders removed. It does not
// preload the app: `/` gets the shell too, and leaves at once for /studio (pre-paint.js), which
// would have been downloading the app for nothing.
await writeFile(
  path.join(distDir, 'index.html'),
  template.replace('<!--app-head-->', '').replace('<!--app-html-->', '').replace('\n    <!--app-overlays-->', ''),
);

const sitemap = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${MARKETING_PAGES.map((page) => `  <url><loc>${siteUrl}${page.path}</loc></url>`).join('\n')}
</urlset>
`;
await writeFile(path.join(distDir, 'sitemap.xml'), sitemap);

const robots = `User-agent: *
Allow: /
Disallow: /admin
Disallow: /settings
Disallow: /api/

Sitemap: ${siteUrl}/sitemap.xml
`;
await writeFile(path.join(distDir, 'robots.txt'), robots);

// The manifest was only for this step; it need not be served.
await rm(path.join(distDir, '.vite'), { recursive: true, force: true });
await rm(ssrDir, { recursive: true, force: true });
// Compressed copies beside the scripts and other text assets: the server sends them to browsers
// that accept them (@fastify/static preCompressed), so nothing is compressed per request. Pages are
// directory indexes, which that lookup covers.
const COMPRESSIBLE = /\.(html|js|css|svg|xml|txt|json)$/;
for (const entry of await readdir(distDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const content = await readFile(file);
  if (content.length < 1024) continue;
  await writeFile(`${file}.gz`, gzipSync(content, { level: 9 }));
  await writeFile(
    `${file}.br`,
    brotliCompressSync(content, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY } }),
  );
}

process.stdout.write(
  `prerendered ${PRERENDERED.length} pages and ${AREA_TAB_PATHS.length} signed-in frames, sitemap.xml and robots.txt\n`,
);
