import { randomUUID } from 'node:crypto';
import type { TenantPublic } from '@dataplatform/contract';
import { expect } from 'vitest';
import type { TestContext, TestUser } from './harness.js';

/**
 * A tenant made through the admin API by `admin` (a superuser), with `members` as its members and
 * `dburl` as its own database when given; the name is unique unless one is given.
 */
export async function createTenant(
  ctx: TestContext,
  admin: TestUser,
  options: { name?: string; members?: TestUser[]; dburl?: string } = {},
): Promise<TenantPublic> {
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/tenants/',
    headers: admin.headers,
    payload: {
      name: options.name ?? `tenant-${randomUUID()}`,
      ...(options.dburl === undefined ? {} : { dburl: options.dburl }),
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const tenant = created.json<TenantPublic>();
  if (options.members && options.members.length > 0) {
    const members = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/tenants/${tenant.id}/members`,
      headers: admin.headers,
      payload: options.members.map((member) => member.id),
    });
    expect(members.statusCode, members.body).toBe(200);
  }
  return tenant;
}

/** `user`'s headers acting in `tenantId` (X-Tenant-ID; none when undefined), with `extra` beside them. */
export function tenantHeaders(user: TestUser, tenantId?: string, extra: Record<string, string> = {}) {
  return { ...user.headers, ...(tenantId ? { 'x-tenant-id': tenantId } : {}), ...extra };
}
