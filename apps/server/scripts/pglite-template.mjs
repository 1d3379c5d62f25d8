// The embedded database a new data folder starts from (db/client.ts, openPglite): a cluster made
// and migrated here, at build time, so that a first start copies it instead of running initdb and
// every migration. Run after tsc, from the compiled code, with the migrations it ships.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const outDir = process.env.BUILD_OUT_DIR;
if (!outDir) throw new Error('pglite-template: BUILD_OUT_DIR is not set (build with `npm run build`)');
const { openPglite, pgliteTemplateDir } = await import(pathToFileURL(path.join(outDir, 'db/client.js')).href);

// Without a template in place, openPglite creates the cluster with initdb.
rmSync(pgliteTemplateDir, { recursive: true, force: true });
const work = mkdtempSync(path.join(tmpdir(), 'pglite-template-'));
try {
  const dataDir = path.join(work, 'pglite');
  const database = await openPglite(dataDir);
  await database.migrate();
  await database.close();
  cpSync(dataDir, pgliteTemplateDir, { recursive: true });
} finally {
  rmSync(work, { recursive: true, force: true });
}
