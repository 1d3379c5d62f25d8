import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from './client.js';

describe('openPglite', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'dp-pglite-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('creates a cluster in a new folder, migrates it, and finds the data there when opened again', async () => {
    const dataDir = path.join(root, 'pglite');
    const first = await openPglite(dataDir);
    await first.migrate();
    await first.db.execute(
      sql`INSERT INTO outbox (recipient, subject, text_body) VALUES ('a@example.com', 'kept', 'x')`,
    );
    await first.close();

    const again = await openPglite(dataDir);
    try {
      await again.migrate();
      const rows = await again.db.execute<{ subject: string }>(sql`SELECT subject FROM outbox`);
      expect(rows.rows.map((row) => row.subject)).toEqual(['kept']);
    } finally {
      await again.close();
    }
  });
});
