import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createPglite, openPostgres, wrapPglite } from '../src/db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite mode: a migrated data directory every test file loads its own copy of. */
    pgliteDumpPath: string;
    /** PostgreSQL mode: a migrated template every test file clones into its own database. */
    templateDatabase: string;
  }
}

/**
 * Migrates once per run: initdb and migrations are the slow part, so each test file starts from a
 * copy (a PGlite dump, or CREATE DATABASE ... TEMPLATE on the server).
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = `dp_test_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    const url = new URL(serverUrl);
    url.pathname = `/${template}`;
    const database = openPostgres(url.toString(), { poolSize: 1 });
    await database.migrate();
    await database.close();
    project.provide('templateDatabase', template);
    project.provide('pgliteDumpPath', '');
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await admin.end();
    };
  }

  const dir = mkdtempSync(path.join(tmpdir(), 'dp-test-'));
  const dumpPath = path.join(dir, 'pglite.tar');
  const client = await createPglite();
  const database = wrapPglite(client);
  await database.migrate();
  const dump = await client.dumpDataDir('none');
  writeFileSync(dumpPath, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteDumpPath', dumpPath);
  project.provide('templateDatabase', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
