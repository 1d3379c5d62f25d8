import type { ReportRunResult } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { definition, preview, useTenantSourceWorld, world } from '../../../test/tenant-source-world.js';

/**
 * What only a PostgreSQL server can show of the tenant source: PGlite runs in the test's own process
 * with no timer signal, so a statement_timeout cannot stop its query (the cancel on disconnect is in
 * tenant-source-cancel.postgres.test.ts). Run by the PostgreSQL suite (TEST_DATABASE_URL; vitest.config.ts).
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
});
