import type { ReportRunResult } from '@dataplatform/contract';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { definition, preview, useTenantSourceWorld, world } from '../../../test/tenant-source-world.js';

/**
 * What only a PostgreSQL server can show of the tenant source: PGlite runs in the test's own process
 * with no timer signal, so a statement_timeout cannot stop its query, and it has no pg_stat_activity
 * to watch a cancelled query go. Run by the PostgreSQL suite (TEST_DATABASE_URL; vitest.config.ts).
 */
useTenantSourceWorld();

describe('the tenant source on a PostgreSQL server', () => {
  it('stops a query at the time limit in the database, and the next query answers', async () => {
    const slow = await world.ctx.app.inject({
      method: 'POST',
      url: '/api/v1/studio/preview',
      headers: { ...world.admin.headers, 'x-tenant-id': world.tenantA.id },
      payload: {
        definition: definition(
          'SELECT count(*) AS n FROM generate_series(1, 100000000) a, generate_series(1, 100000000) b',
          'kpi',
        ),
        block: 'b',
      },
    });
    expect(slow.statusCode, slow.body).toBe(422);
    expect(slow.json<{ code: string }>().code).toBe('query_timeout');
    const next = await preview(world.tenantA.id, 'SELECT count(*) AS n FROM sales', {}, 'kpi');
    expect(next.json<ReportRunResult>().rows).toEqual([[250]]);
  }, 60_000);

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
      while ((await running()) > 0 && performance.now() - abortedAt < 5000) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // Gone well before the 3 s statement timeout would have ended it.
      expect(await running()).toBe(0);
      expect(performance.now() - abortedAt).toBeLessThan(2000);
    } finally {
      await watcher.end();
    }
  }, 30_000);
});
