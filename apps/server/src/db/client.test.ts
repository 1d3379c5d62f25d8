import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from './client.js';
import { outbox } from './schema/index.js';

describe('openPglite', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'dp-pglite-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const noTemplate = path.join(root, 'no-template');

  it('creates a cluster in a new folder, migrates it, and finds the data there when opened again', async () => {
    const dataDir = path.join(root, 'pglite');
    const first = await openPglite(dataDir, noTemplate);
    await first.migrate();
    await first.db.insert(outbox).values({ recipient: 'a@example.com', subject: 'kept', textBody: 'x' });
    await first.close();

    const again = await openPglite(dataDir, noTemplate);
    try {
      await again.migrate();
      expect(await again.db.select({ subject: outbox.subject }).from(outbox)).toEqual([{ subject: 'kept' }]);
    } finally {
      await again.close();
    }
    // Two cluster starts and a full migration: seconds on a quiet machine, much longer on a busy one.
  }, 180_000);

  it('starts a new folder as a copy of the template, whatever an interrupted copy left beside it', async () => {
    // The template: the previous test's migrated cluster, holding one row.
    const template = path.join(root, 'pglite');
    const dataDir = path.join(root, 'from-template');
    mkdirSync(`${dataDir}.copying/base`, { recursive: true });
    writeFileSync(`${dataDir}.copying/base/left-over`, 'x');
    const copy = await openPglite(dataDir, template);
    try {
      await copy.migrate();
      expect(await copy.db.select({ subject: outbox.subject }).from(outbox)).toEqual([{ subject: 'kept' }]);
    } finally {
      await copy.close();
    }
    expect(existsSync(`${dataDir}.copying`)).toBe(false);
    expect(existsSync(path.join(dataDir, 'base', 'left-over'))).toBe(false);
    expect(existsSync(path.join(template, 'PG_VERSION'))).toBe(true);
  }, 180_000);
});
