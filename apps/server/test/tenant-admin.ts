import type { TenantPublic } from '@dataplatform/contract';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { tenants } from '../src/db/schema/index.js';
import { createTestContext, createUser, type TestContext, type TestUser } from './harness.js';
import { closedPort, startTenantDatabases, type TenantDatabase } from './tenant-databases.js';

/** Two tenant databases (`a` has a table, `b` a table and a view) and a URL nothing listens on. */
export interface TenantDatabases {
  a: TenantDatabase;
  b: TenantDatabase;
  unreachableUrl: string;
}

/**
 * The set-up of the tenant admin tests (modules/tenants/tenants*.test.ts): one app allowed a single
 * tenant pool, a superuser and a plain user, two tenant databases, and the requests they send. As
 * with useTestContext, the objects are filled in by `beforeAll`: read them inside tests and hooks.
 */
export function useTenantAdmin() {
  const ctx = {} as TestContext;
  const admin = {} as TestUser;
  const plain = {} as TestUser;
  const databases = {} as TenantDatabases;
  let nameCounter = 0;

  beforeAll(async () => {
    Object.assign(
      ctx,
      await createTestContext({
        config: {
          tenantDatabases: { maxPools: 1, poolSize: 2, idleMs: 60_000, connectTimeoutMs: 3000, allowedHosts: null },
        },
      }),
    );
    const [a, b] = (await startTenantDatabases(2)) as [TenantDatabase, TenantDatabase];
    Object.assign(databases, { a, b });
    await a.exec('CREATE TABLE a_orders (id int primary key)');
    await b.exec('CREATE TABLE b_invoices (id int primary key); CREATE VIEW b_totals AS SELECT 1 AS total');
    databases.unreachableUrl = `postgresql://app:unreachable-secret@127.0.0.1:${await closedPort()}/app`;
    Object.assign(admin, await createUser(ctx, { isSuperuser: true }));
    Object.assign(plain, await createUser(ctx));
  }, 180_000);
  afterAll(async () => {
    if ('close' in ctx) await ctx.close();
    await databases.a?.close();
    await databases.b?.close();
  });

  const api = (options: InjectOptions & { url: string; user?: TestUser; tenant?: string }) => {
    const { user, tenant, url, headers, ...rest } = options;
    return ctx.app.inject({
      ...rest,
      url: `/api/v1${url}`,
      headers: {
        ...headers,
        ...(user ? user.headers : {}),
        ...(tenant !== undefined ? { 'x-tenant-id': tenant } : {}),
      },
    });
  };

  async function createTenant(body: Record<string, unknown> = {}): Promise<TenantPublic> {
    nameCounter += 1;
    const response = await api({
      method: 'POST',
      url: '/tenants/',
      user: admin,
      payload: { name: `Tenant ${nameCounter}`, ...body },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<TenantPublic>();
  }

  const checkConnection = (id: string) =>
    api({ method: 'POST', url: `/tenants/${id}/check-connection`, user: admin }).then((r) => {
      expect(r.statusCode, r.body).toBe(200);
      return r.json<{ ok: boolean; detail?: string; latency_ms?: number; server_version?: string }>();
    });

  const storedRow = async (id: string) => {
    const [row] = await ctx.database.db.select().from(tenants).where(eq(tenants.id, id));
    return row!;
  };

  return { ctx, admin, plain, databases, api, createTenant, checkConnection, storedRow };
}

export function maskedOf(url: string): string {
  const parsed = new URL(url);
  parsed.password = '****';
  return parsed.toString();
}

export function passwordOf(url: string): string {
  return decodeURIComponent(new URL(url).password);
}
