import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createTenantDatabase, preparePostgres } from './tenant-database.js';
import type { TenantDatabaseAccess } from './types.js';

const log = Fastify({ logger: false }).log;
const scope = { tenantId: 't1', sealedDburl: 'sealed' };

describe('the tenant source', () => {
  it('exists only for a chosen tenant with a dburl, when the tenants module lends pools', () => {
    const access: TenantDatabaseAccess = { use: (_tenantId, _sealed, work) => work({} as never) };
    const tenant = createTenantDatabase({ access, log });
    expect(tenant.has(scope)).toBe(true);
    expect(tenant.has({ tenantId: 't1', sealedDburl: null })).toBe(false);
    expect(tenant.has({ tenantId: null })).toBe(false);
    expect(createTenantDatabase({ log }).has(scope)).toBe(false);
    expect(tenant.target(scope)).toEqual({ tenantId: 't1', sealed: 'sealed' });
    expect(() => tenant.target({ tenantId: null })).toThrow(expect.objectContaining({ errorCode: 'source_not_found' }));
  });

  it('answers a failing pool as source_unavailable without its message, and passes our own errors on', async () => {
    const failing = createTenantDatabase({
      access: { use: () => Promise.reject(new Error('connect ECONNREFUSED postgres://user:secret@host')) },
      log,
    });
    const error = await failing.use(scope, () => Promise.resolve(1)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ errorCode: 'source_unavailable', headers: { 'Retry-After': '5' } });
    expect(JSON.stringify(error)).not.toContain('secret');
    const working = createTenantDatabase({ access: { use: (_t, _s, work) => work({} as never) }, log });
    expect(await working.use(scope, () => Promise.resolve('rows'))).toBe('rows');
  });
});

describe('preparing PostgreSQL SQL', () => {
  it('binds placeholders as $n and refuses anything but one read', async () => {
    expect(await preparePostgres({ sql: 'SELECT :a::int + :b::int, :a', params: { a: 1, b: 2 } })).toEqual({
      text: 'SELECT $1::int + $2::int, $1',
      values: [1, 2],
    });
    await expect(preparePostgres({ sql: 'DELETE FROM rates', params: {} })).rejects.toMatchObject({
      errorCode: 'query_refused',
    });
  });
});
