import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createUser, useTestContext } from '../../../test/harness.js';

describe('Studio sources (STUDIO-DEMO-1)', () => {
  const { ctx, admin } = useTestContext();

  it('offers every signed-in user the demo source, with its tables and columns', async () => {
    const user = await createUser(ctx);
    const sources = await ctx.app.inject({ url: '/api/v1/studio/sources', headers: user.headers });
    expect(sources.statusCode).toBe(200);
    const listed = sources.json<{ data: { id: string; kind: string; name: string }[]; count: number }>();
    expect(listed.data.map((source) => [source.id, source.kind])).toEqual([['demo', 'demo']]);
    expect(listed.data[0]!.name.length).toBeGreaterThan(0);
    expect(listed.count).toBe(1);

    const tables = await ctx.app.inject({ url: '/api/v1/studio/sources/demo/tables', headers: user.headers });
    expect(tables.statusCode).toBe(200);
    const body = tables.json<{ data: { name: string; columns: { name: string; type: string }[] }[]; count: number }>();
    expect(body.count).toBe(5);
    expect(body.data.find((table) => table.name === 'fee_schedule')?.columns).toEqual([
      { name: 'billing_code', type: 'VARCHAR' },
      { name: 'description', type: 'VARCHAR' },
      { name: 'work_rvu', type: 'DOUBLE' },
      { name: 'pe_rvu', type: 'DOUBLE' },
      { name: 'mp_rvu', type: 'DOUBLE' },
      { name: 'conversion_factor', type: 'DOUBLE' },
    ]);
  });

  it('answers 404 for a source the caller does not have, and 401 without a token', async () => {
    for (const id of ['tenant', 'extract', 'nonexistent', '..%2F..%2Fetc', '%C3%A9'.repeat(60)]) {
      const response = await ctx.app.inject({ url: `/api/v1/studio/sources/${id}/tables`, headers: admin.headers });
      expect(response.statusCode, id).toBe(404);
      expect(response.json<{ code: string }>().code, id).toBe('not_found');
    }
    expect((await ctx.app.inject({ url: '/api/v1/studio/sources' })).statusCode).toBe(401);
  });

  it('refuses a tenant the caller does not belong to, as every tenant-scoped route does', async () => {
    const user = await createUser(ctx);
    const response = await ctx.app.inject({
      url: '/api/v1/studio/sources',
      headers: { ...user.headers, 'x-tenant-id': randomUUID() },
    });
    expect([403, 404]).toContain(response.statusCode);
  });
});
