/**
 * Writes the server's list of the web app's paths (packages/contract/src/web-paths.generated.ts) from
 * the route table (src/config/route-table.ts), the one place a page or area is declared. The server
 * answers any other page path with a real 404 and must not need the web build to know them, so the
 * list is committed; a test (src/app/routes.test.ts) regenerates it and fails when it is stale.
 *
 *   npm run generate:web-paths -w apps/web
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { AREA_ROOTS, PAGE_PATHS } from '../src/config/route-table.js';

export const WEB_PATHS_FILE = path.resolve(
  import.meta.dirname,
  '../../../packages/contract/src/web-paths.generated.ts',
);

const list = (paths: readonly string[]) => paths.map((path) => `  '${path}',\n`).join('');

/** The generated module's text. */
export function webPathsSource(): string {
  return `// Generated from apps/web/src/config/route-table.ts by apps/web/build/web-paths.ts: do not edit.
// npm run generate:web-paths -w apps/web

/** Every page path of the web app (\`:name\` matches one segment). */
export const WEB_PAGE_PATHS = [
${list(PAGE_PATHS)}] as const;

/** Areas that route further on the client: every path below them belongs to the app. */
export const WEB_AREA_PATHS = [
${list(AREA_ROOTS)}] as const;
`;
}

if (process.argv[1] === import.meta.filename) writeFileSync(WEB_PATHS_FILE, webPathsSource());
