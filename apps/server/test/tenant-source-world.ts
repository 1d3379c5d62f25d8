import type { TenantPublic } from '@dataplatform/contract';
import { afterAll, beforeAll } from 'vitest';
import { createTestContext, createUser, type TestContext, type TestUser } from './harness.js';
import { startTenantDatabases, type TenantDatabase } from './tenant-databases.js';

/**
 * The world of the tenant source's tests (tenant-source.test.ts, and tenant-source.postgres.test.ts
 * for what only a PostgreSQL server can show): two tenants, each with a database of its own (the
 * server of TEST_DATABASE_URL, or PGlite over the wire), a superuser and one member of each.
 */
let ctx: TestContext;
let databases: TenantDatabase[];
let admin: TestUser;
let memberA: TestUser;
let memberB: TestUser;
let tenantA: TenantPublic;
let tenantB: TenantPublic;

export const definition = (sql: string, kind: 'table' | 'kpi' = 'table') =>
  kind === 'table'
    ? `title: T\nsource: tenant\nparams:\n  region: { type: text, default: "north" }\nblocks:\n  - id: b\n    table: { sql: ${JSON.stringify(sql)}, page_size: 50 }\n`
    : `title: T\nsource: tenant\nparams:\n  region: { type: text, default: "north" }\nblocks:\n  - id: b\n    kpi: { sql: ${JSON.stringify(sql)}, value: n }\n`;

export function preview(tenantId: string, sql: string, body: object = {}, kind: 'table' | 'kpi' = 'table') {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/studio/preview',
    headers: { ...admin.headers, 'x-tenant-id': tenantId },
    payload: { definition: definition(sql, kind), block: 'b', ...body },
  });
}

/**
 * Registers the hooks that build and remove the world; call once at the top of a test file.
 * `queryTimeoutSeconds` is the Studio time limit of the world's server (3 s, short for the tests of it).
 */
export function useTenantSourceWorld({ queryTimeoutSeconds = 3 }: { queryTimeoutSeconds?: number } = {}) {
  beforeAll(async () => {
    ctx = await createTestContext({
      env: { STUDIO_QUERY_TIMEOUT_SECONDS: String(queryTimeoutSeconds) },
      config: {
        tenantDatabases: { maxPools: 10, poolSize: 4, idleMs: 60_000, connectTimeoutMs: 5000, allowedHosts: null },
      },
    });
    databases = await startTenantDatabases(2);
    const [dbA, dbB] = databases as [TenantDatabase, TenantDatabase];
    await dbA.exec(`CREATE TABLE sales (id int PRIMARY KEY, region text NOT NULL, amount numeric(10,2), sold_on date);
    INSERT INTO sales SELECT i, CASE WHEN i % 2 = 0 THEN 'north' ELSE 'south' END, i * 1.5, DATE '2026-01-01' + i
    FROM generate_series(1, 250) AS i;`);
    await dbB.exec(`CREATE TABLE secrets_of_b (v text); INSERT INTO secrets_of_b VALUES ('b-only');`);
    admin = await createUser(ctx, { isSuperuser: true });
    memberA = await createUser(ctx);
    memberB = await createUser(ctx);
    const create = async (name: string, dburl: string, member: TestUser) => {
      const tenant = (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/tenants/',
          headers: admin.headers,
          payload: { name, dburl },
        })
      ).json<TenantPublic>();
      await ctx.app.inject({
        method: 'PUT',
        url: `/api/v1/tenants/${tenant.id}/members`,
        headers: admin.headers,
        payload: [member.id],
      });
      return tenant;
    };
    tenantA = await create('Studio tenant A', dbA.url, memberA);
    tenantB = await create('Studio tenant B', dbB.url, memberB);
  }, 180_000);

  afterAll(async () => {
    await ctx?.close();
    await Promise.all((databases ?? []).map((database) => database.close()));
  });
}

/** The world's parts, once the hooks have built it. */
export const world = {
  get ctx() {
    return ctx;
  },
  get admin() {
    return admin;
  },
  get memberA() {
    return memberA;
  },
  get memberB() {
    return memberB;
  },
  get tenantA() {
    return tenantA;
  },
  get tenantB() {
    return tenantB;
  },
};
