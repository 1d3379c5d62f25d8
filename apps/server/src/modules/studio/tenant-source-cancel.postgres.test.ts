import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { definition, useTenantSourceWorld, world } from '../../../test/tenant-source-world.js';

/**
 * A client that goes away stops its query in the tenant's PostgreSQL server (pg_stat_activity shows it
 * go; PGlite has none). The world's time limit is 120 s, so a query that is gone within the test's
 * wait was stopped by the cancel, not by the limit. Run by the PostgreSQL suite (vitest.config.ts).
 */
useTenantSourceWorld({ queryTimeoutSeconds: 120 });

describe('the tenant source on a PostgreSQL server, when the client disconnects', () => {
  it('stops the query in the database when the client disconnects (STUDIO-REPORT-8)', async () => {
    const address = await world.ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const marker = 'studio_cancel_marker';
    const controller = new AbortController();
    const sent = fetch(`${address}/api/v1/studio/preview`, {
      method: 'POST',
      headers: { ...world.admin.headers, 'x-tenant-id': world.tenantA.id, 'content-type': 'application/json' },
      body: JSON.stringify({
        definition: definition(
          `SELECT count(*) AS n FROM generate_series(1, 100000000) a, generate_series(1, 100000000) b WHERE 'x' <> '${marker}'`,
          'kpi',
        ),
        block: 'b',
      }),
      signal: controller.signal,
    }).catch(() => undefined);
    const watcher = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await watcher.connect();
    const running = async () =>
      (
        await watcher.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()",
          [`%${marker}%`],
        )
      ).rows[0]?.n ?? 0;
    try {
      // Up to 5 s for the query to reach the database: a loaded machine starts it late.
      let seen = false;
      for (let tries = 0; tries < 200 && !seen; tries += 1) {
        seen = (await running()) > 0;
        if (!seen) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(seen).toBe(true);
      controller.abort();
      await sent;
      const abortedAt = performance.now();
      // Polled for up to 30 s, a quarter of the time limit: gone in that time, it was the cancel that
      // ended it, however slow the machine.
      while ((await running()) > 0 && performance.now() - abortedAt < 30_000) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(await running()).toBe(0);
    } finally {
      await watcher.end();
    }
  }, 60_000);
});
