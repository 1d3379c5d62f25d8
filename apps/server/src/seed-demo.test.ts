import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DOWNLOAD_ROLE_PREFIX,
  type ReportPublic,
  type ReportRunResult,
  type StudioExtracts,
} from '@dataplatform/contract';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, login, type TestContext } from '../test/harness.js';
import * as schema from './db/schema/index.js';
import { seedFirstSuperuser } from './seed.js';
import { DEMO_PASSWORD, seedDemo } from './seed-demo.js';

const TABLES = {
  users: schema.users,
  roles: schema.roles,
  permissions: schema.permissions,
  role_permissions: schema.rolePermissions,
  user_roles: schema.userRoles,
  tenants: schema.tenants,
  tenant_members: schema.tenantMembers,
  plans: schema.plans,
  contact_submissions: schema.contactSubmissions,
  studio_extracts: schema.studioExtracts,
  reports: schema.reports,
  report_versions: schema.reportVersions,
  audit_log: schema.auditLog,
  outbox: schema.outbox,
};

describe('demo seed (npm run db:seed)', () => {
  let ctx: TestContext;
  let filesDir: string;

  /** Rows in every table the seed writes to, or could write to by accident (mail, audit). */
  async function rowCounts(): Promise<Record<keyof typeof TABLES, number>> {
    const counts = {} as Record<keyof typeof TABLES, number>;
    for (const name of Object.keys(TABLES) as (keyof typeof TABLES)[]) {
      const [row] = await ctx.database.db.select({ total: count() }).from(TABLES[name]);
      counts[name] = row?.total ?? 0;
    }
    return counts;
  }

  const seed = (config = ctx.config) =>
    seedDemo({ db: ctx.database.db, services: ctx.app.services, config, clock: ctx.clock });

  beforeAll(async () => {
    filesDir = mkdtempSync(path.join(tmpdir(), 'dp-seed-files-'));
    ctx = await createTestContext({ env: { FILES_DIR: filesDir, FIRST_SUPERUSER_PASSWORD: 'first-superuser-pw' } });
    await seedFirstSuperuser(ctx.database.db, ctx.config, ctx.app.log);
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(filesDir, { recursive: true, force: true });
  });

  it('refuses ENVIRONMENT=production before writing anything', async () => {
    const before = await rowCounts();
    await expect(seed({ ...ctx.config, environment: 'production' })).rejects.toThrow(/never runs in production/);
    expect(await rowCounts()).toEqual(before);
    expect(existsSync(path.join(filesDir, 'sales_report.csv'))).toBe(false);
  });

  it('creates users, roles with permissions, a download role and its file, tenants with members, plans and messages', async () => {
    const before = await rowCounts();
    const summary = await seed();
    for (const [kind, added] of Object.entries(summary)) expect(added, kind).toBeGreaterThan(0);
    const after = await rowCounts();
    expect(after.users - before.users).toBe(summary.users);
    expect(after.users).toBeGreaterThanOrEqual(25);
    expect(after.roles - before.roles).toBe(summary.roles);
    expect(after.tenants - before.tenants).toBe(2);
    expect(after.plans - before.plans).toBe(4);
    expect(after.contact_submissions - before.contact_submissions).toBe(summary.contactMessages);
    // Contact messages are written without notification mails; users are created without welcome mails.
    expect(after.outbox).toBe(before.outbox);

    const { authz, tenants, contact } = ctx.app.services;
    const roles = (await authz.roles.list({ skip: 0, limit: 100 })).data;
    const support = roles.find((role) => role.name === 'support')!;
    expect((await authz.permissionsOfRole(support.id)).data.map((p) => p.name).sort()).toEqual([
      'contact:read',
      'contact:write',
      'users:read',
    ]);

    // A demo member signs in with the published password and holds the download role, whose file is there.
    const token = await login(ctx, 'maya.patel@example.com', DEMO_PASSWORD);
    const me = await ctx.app.inject({ url: '/api/v1/users/me', headers: { authorization: `Bearer ${token}` } });
    const maya = me.json<{ id: string; roles: string[] }>();
    const downloadRole = maya.roles.find((name) => name.startsWith(DOWNLOAD_ROLE_PREFIX))!;
    const fileName = downloadRole.slice(DOWNLOAD_ROLE_PREFIX.length);
    const download = await ctx.app.inject({
      url: `/api/v1/files/download/${fileName}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(download.statusCode).toBe(200);
    expect(download.body).toContain('month,region,orders,revenue_usd');

    // Two tenants the server accepts, with members, and a file of their own; Maya belongs to both.
    const seededTenants = (await tenants.list({ skip: 0, limit: 100 })).data;
    expect(seededTenants).toHaveLength(2);
    for (const tenant of seededTenants) {
      expect(tenant.status).toBe('active');
      expect(tenant.dburl).toMatch(/^postgresql:\/\/\w+:\*{4}@localhost:5432\/\w+$/);
      const members = await tenants.getMembers(tenant.id);
      expect(members.length).toBeGreaterThanOrEqual(5);
      expect(members).toContain(maya.id);
      expect(readFileSync(path.join(filesDir, 'tenants', tenant.id, 'sales_report.csv'), 'utf8')).toContain(
        tenant.name,
      );
      const inTenant = await ctx.app.inject({
        url: `/api/v1/files/download/${fileName}`,
        headers: { authorization: `Bearer ${token}`, 'x-tenant-id': tenant.id },
      });
      expect(inTenant.statusCode).toBe(200);
    }

    // Plans for everyone signed in, cheapest first, and a retired one only plan managers see.
    const planNames = async (bearer: string) =>
      (await ctx.app.inject({ url: '/api/v1/subscriptions/plans', headers: { authorization: `Bearer ${bearer}` } }))
        .json<{ data: { name: string }[] }>()
        .data.map((plan) => plan.name);
    expect(await planNames(token)).toEqual(['Starter', 'Team', 'Enterprise']);
    const superuserToken = await login(ctx, ctx.config.firstSuperuser, 'first-superuser-pw');
    expect(await planNames(superuserToken)).toEqual(['Legacy Basic', 'Starter', 'Team', 'Enterprise']);

    // Messages of several statuses.
    const statuses = new Set((await contact.list({ skip: 0, limit: 100 })).data.map((message) => message.status));
    expect([...statuses].sort()).toEqual(['archived', 'new', 'read', 'replied', 'spam']);
  });

  it('gives Acme Health an extract and a report of its own over it, which its studio author can run', async () => {
    const token = await login(ctx, 'maya.patel@example.com', DEMO_PASSWORD);
    const acme = (await ctx.app.services.tenants.list({ skip: 0, limit: 100 })).data.find(
      (tenant) => tenant.name === 'Acme Health',
    )!;
    const headers = { authorization: `Bearer ${token}`, 'x-tenant-id': acme.id };
    const access = await ctx.app.inject({ url: '/api/v1/studio/access', headers });
    expect(access.json()).toMatchObject({ reports_write: true, sources_write: true });

    const extracts = await ctx.app.inject({ url: '/api/v1/studio/extracts', headers });
    const [extract] = extracts.json<StudioExtracts>().data;
    expect(extracts.json<StudioExtracts>().count).toBe(1);
    expect(extract).toMatchObject({ name: 'acme_rates', format: 'csv', rows: 360 });
    expect(extract!.tables[0]!.columns.map((column) => column.name)).toEqual([
      'hospital',
      'billing_code',
      'service',
      'payer',
      'plan_type',
      'negotiated_rate',
      'cash_price',
      'gross_charge',
    ]);

    const report = await ctx.app.inject({ url: '/api/v1/studio/reports/acme-rates-by-payer', headers });
    expect(report.statusCode, report.body).toBe(200);
    const { id, source, blocks } = report.json<ReportPublic>();
    expect(source).toBe('extract');
    // Every block runs on the extract with the default billing code.
    for (const block of blocks) {
      const run = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/studio/reports/${id}/run`,
        headers,
        payload: { block: block.id, params: {} },
      });
      expect(run.statusCode, `${block.id}: ${run.body}`).toBe(200);
      expect(run.json<ReportRunResult>().rows.length, block.id).toBeGreaterThan(0);
    }
    const table = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/studio/reports/${id}/run`,
      headers,
      payload: { block: 'rates', params: { code: '70450' } },
    });
    // Four hospitals, five payers, three plan types.
    expect(table.json<ReportRunResult>().count).toBe(60);
  });

  it('adds nothing on a second run: no record, no assignment, no audit entry, no file', async () => {
    const before = await rowCounts();
    const summary = await seed();
    expect(Object.values(summary).every((added) => added === 0)).toBe(true);
    expect(await rowCounts()).toEqual(before);
  });
});
