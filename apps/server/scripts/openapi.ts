/**
 * Writes the OpenAPI document the server serves to packages/contract/openapi.json (`npm run openapi`),
 * the file clients are generated from. The server is built as the tests build it, on a throwaway
 * in-memory database with no outside services configured; the document depends on none of that.
 * src/plugins/openapi.test.ts fails while the committed file differs from what the server serves.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPglite, wrapPglite } from '../src/db/client.js';
import { API_PREFIX } from '../src/plugins/swagger.js';

export const OPENAPI_FILE = fileURLToPath(new URL('../../../packages/contract/openapi.json', import.meta.url));

/** Object keys in code-point order at every level (arrays keep theirs), so the text is stable. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

/**
 * The document as committed: sorted keys, two-space indent, a final newline. Key order is the one
 * thing the server's answer may change without changing the API (the order routes are registered in).
 */
export function formatOpenApiDocument(document: unknown): string {
  return `${JSON.stringify(sortKeys(document), null, 2)}\n`;
}

async function main(): Promise<void> {
  const database = wrapPglite(await createPglite());
  await database.migrate();
  const config = loadConfig({
    ENVIRONMENT: 'local',
    SECRET_KEY: 'openapi-document-only-secret-key-0123456789abcdef',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: '/nonexistent-web-dist',
  });
  const app = await buildApp(config, { database });
  try {
    const response = await app.inject(`${API_PREFIX}/openapi.json`);
    if (response.statusCode !== 200) throw new Error(`the server answered ${response.statusCode}: ${response.body}`);
    writeFileSync(OPENAPI_FILE, formatOpenApiDocument(response.json()));
    process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
  } finally {
    await app.close();
    await database.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
