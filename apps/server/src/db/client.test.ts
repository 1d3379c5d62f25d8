import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from './client.js';
import { outbox } from './schema/index.js';

describe('openPglite', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'dp-pglite-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('creates a cluster in a new folder, migrates it, and finds the data there when opened again', async () => {
    const dataDir = path.join(root, 'pglite');
    const first = await openPglite(dataDir);
    await first.migrate();
    await first.db.insert(outbox).values({ recipient: 'a@example.com', subject: 'kept', textBody: 'x' });
    await first.close();

    const again = await openPglite(dataDir);
    try {
      await again.migrate();
      expect(await again.db.select({ subject: outbox.subject }).from(outbox)).toEqual([{ subject: 'kept' }]);
    } finally {
      await again.close();
    }
  });
});
