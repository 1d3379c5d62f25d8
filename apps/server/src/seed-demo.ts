import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  ContactCreateSchema,
  PAGE_LIMIT_MAX,
  PlanCreateSchema,
  ReportCreateSchema,
  RoleCreateSchema,
  STUDIO_EXTRACT_CONTENT_TYPES,
  TenantCreateSchema,
  UserCreateSchema,
  type PaginationQuery,
} from '@dataplatform/contract';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Actor } from './lib/auth-context.js';
import type { Clock } from './lib/clock.js';
import { insertSubmission } from './modules/contact/contact.repository.js';
import { filesRootFor } from './modules/files/files.service.js';
import type { Services } from './modules/index.js';
import { isAllowedDatabaseHost } from './modules/tenants/database-url.js';
import { findUserByEmail } from './modules/users/users.service.js';
import { DOWNLOAD_FILE, MESSAGES, PLANS, ROLES, TENANTS, USERS } from './seed-demo/accounts.js';
import { acmeRatesCsv, STUDIO_EXTRACT, STUDIO_REPORT, STUDIO_REPORT_SLUG, STUDIO_TENANT } from './seed-demo/studio.js';

/** Every demo account's password: printed by `npm run db:seed` and written in the README. */
export const DEMO_PASSWORD = 'demo-password';

// The demo's people, roles, tenants, plans and messages are in seed-demo/accounts.ts, Studio's extract
// and report in seed-demo/studio.ts; this file writes them, each only once.

/** What one run added; a second run on the same database adds nothing, so every count is 0. */
export interface DemoSeedSummary {
  users: number;
  roles: number;
  rolePermissions: number;
  userRoles: number;
  tenants: number;
  tenantMembers: number;
  plans: number;
  contactMessages: number;
  files: number;
  /** Studio: the demo tenant's extract and the report over it. */
  extracts: number;
  reports: number;
}

/** Every item of a paged list, read PAGE_LIMIT_MAX at a time. */
async function readAll<T>(read: (page: PaginationQuery) => Promise<{ data: T[]; count: number }>): Promise<T[]> {
  const items: T[] = [];
  for (let skip = 0; ; skip += PAGE_LIMIT_MAX) {
    const page = await read({ skip, limit: PAGE_LIMIT_MAX });
    items.push(...page.data);
    if (page.data.length === 0 || items.length >= page.count) return items;
  }
}

/** `wanted` ids missing from `current`; an empty list means nothing to write. */
const missingFrom = (current: string[], wanted: string[]) => wanted.filter((id) => !current.includes(id));

/** Writes a file unless one is already there (a file a developer put in its place is kept). */
async function writeOnce(file: string, content: string): Promise<boolean> {
  await mkdir(path.dirname(file), { recursive: true });
  try {
    await writeFile(file, content, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function salesReport(scope: string): string {
  const rows = [
    ['2026-01', 'North', 1204, '184233.50'],
    ['2026-01', 'South', 877, '120410.00'],
    ['2026-02', 'North', 1310, '199870.25'],
    ['2026-02', 'South', 902, '131005.75'],
  ];
  return `# ${scope}\nmonth,region,orders,revenue_usd\n${rows.map((row) => row.join(',')).join('\n')}\n`;
}

/**
 * `npm run db:seed`: demo data for a local run, so the settings area and the admin console have
 * something to show. It goes through the services the API uses (each record is validated by the
 * contract's schemas and audited as the first superuser's change), except contact messages, which
 * are written by the contact repository so that no notification mail is queued for them.
 *
 * - Refuses to run when ENVIRONMENT=production, before touching anything.
 * - Idempotent: records are found by their natural key (e-mail, name, e-mail + subject) and only
 *   what is missing is added; assignments and memberships gain missing entries and lose none; files
 *   are written only where none exists. A second run adds nothing and writes no audit entry.
 * - Never runs by itself: `npm start` does not seed, not even an empty local database. The e2e and
 *   fault suites start the product exactly as `npm start` does and expect only the first superuser
 *   in it, and demo accounts with a published password belong only in a database whose owner asked
 *   for them.
 *
 * Needs the first superuser (FIRST_SUPERUSER) to exist: the CLI creates it first, as the server does.
 */
export async function seedDemo(deps: {
  db: Database;
  services: Services;
  config: Config;
  clock: Clock;
}): Promise<DemoSeedSummary> {
  const { db, services, config, clock } = deps;
  if (config.environment === 'production') {
    throw new Error('The demo seed never runs in production (ENVIRONMENT=production).');
  }
  const admin = await findUserByEmail(db, config.firstSuperuser);
  if (!admin?.isSuperuser) {
    throw new Error(
      `The first superuser ${config.firstSuperuser} does not exist: start the server once, or run db:seed.`,
    );
  }
  const actor: Actor = { user: admin, sessionId: 'db-seed', roleNames: [], ip: null };
  const { users, authz, tenants, contact, billing, extracts, reports } = services;
  const summary: DemoSeedSummary = {
    users: 0,
    roles: 0,
    rolePermissions: 0,
    userRoles: 0,
    tenants: 0,
    tenantMembers: 0,
    plans: 0,
    contactMessages: 0,
    files: 0,
    extracts: 0,
    reports: 0,
  };

  // Users.
  const userIds = new Map<string, string>();
  for (const person of USERS) {
    const existing = await findUserByEmail(db, person.email);
    if (existing) {
      userIds.set(person.email, existing.id);
      continue;
    }
    const body = UserCreateSchema.parse({
      email: person.email,
      password: DEMO_PASSWORD,
      full_name: person.fullName,
      is_active: person.isActive ?? true,
    });
    userIds.set(person.email, (await users.create(actor, body)).id);
    summary.users += 1;
  }
  const idsOf = (emails: string[]) => emails.map((email) => userIds.get(email)!);

  // Roles, the permissions they grant, and who holds them.
  const permissionIds = new Map(
    (await readAll((page) => authz.permissions.list(page))).map((permission) => [permission.name, permission.id]),
  );
  const roles = await readAll((page) => authz.roles.list(page));
  for (const demo of ROLES) {
    let role = roles.find((candidate) => candidate.name.toLowerCase() === demo.name.toLowerCase());
    if (!role) {
      role = await authz.roles.create(
        actor,
        RoleCreateSchema.parse({ name: demo.name, description: demo.description }),
      );
      summary.roles += 1;
    }
    const granted = (await authz.permissionsOfRole(role.id)).data.map((permission) => permission.id);
    const toGrant = missingFrom(
      granted,
      demo.permissions.map((name) => permissionIds.get(name)!),
    );
    if (toGrant.length > 0) {
      await authz.replaceRolePermissions(actor, role.id, [...granted, ...toGrant]);
      summary.rolePermissions += toGrant.length;
    }
    for (const userId of idsOf(demo.members)) {
      const held = (await authz.rolesOfUser(userId)).data.map((heldRole) => heldRole.id);
      if (held.includes(role.id)) continue;
      await authz.replaceUserRoles(actor, userId, [...held, role.id]);
      summary.userRoles += 1;
    }
  }

  // Tenants and their members.
  const existingTenants = await readAll((page) => tenants.list(page));
  const tenantIds: string[] = [];
  for (const demo of TENANTS) {
    let tenant = existingTenants.find((candidate) => candidate.name === demo.name);
    if (!tenant) {
      // Under a TENANT_DB_HOSTS list without localhost the tenant is made without a database URL.
      const dburl = isAllowedDatabaseHost(demo.dburl, config.tenantDatabases.allowedHosts) ? demo.dburl : null;
      const body = TenantCreateSchema.parse({ name: demo.name, description: demo.description, dburl });
      tenant = await tenants.create(actor, body);
      summary.tenants += 1;
    }
    tenantIds.push(tenant.id);
    const members = await tenants.getMembers(tenant.id);
    const toAdd = missingFrom(members, idsOf(demo.members));
    if (toAdd.length > 0) {
      await tenants.setMembers(actor, tenant.id, [...members, ...toAdd]);
      summary.tenantMembers += toAdd.length;
    }
  }

  // Studio: the demo tenant's price file as an extract, and a report of its own over it (found by
  // their names, so a second run adds neither).
  const studioTenant = (await readAll((page) => tenants.list(page))).find((tenant) => tenant.name === STUDIO_TENANT);
  if (studioTenant) {
    const scope = { tenantId: studioTenant.id, sealedDburl: null };
    if (!(await extracts.list(scope)).data.some((extract) => extract.name === STUDIO_EXTRACT)) {
      const file = Buffer.from(acmeRatesCsv());
      await extracts.upload(actor, scope, {
        name: STUDIO_EXTRACT,
        contentType: STUDIO_EXTRACT_CONTENT_TYPES.csv,
        contentLength: String(file.length),
        body: Readable.from([file]),
      });
      summary.extracts += 1;
    }
    const listed = await reports.list(scope, { skip: 0, limit: PAGE_LIMIT_MAX, q: STUDIO_REPORT_SLUG });
    if (!listed.data.some((report) => report.slug === STUDIO_REPORT_SLUG)) {
      await reports.create(
        actor,
        scope,
        ReportCreateSchema.parse({ definition: STUDIO_REPORT, slug: STUDIO_REPORT_SLUG }),
      );
      summary.reports += 1;
    }
  }

  // The downloadable file: the global copy, and each demo tenant's own (a request naming a tenant
  // reads only that tenant's folder).
  if (await writeOnce(path.join(filesRootFor(config, null), `${DOWNLOAD_FILE}.csv`), salesReport('All regions'))) {
    summary.files += 1;
  }
  for (const [index, tenantId] of tenantIds.entries()) {
    const file = path.join(filesRootFor(config, tenantId), `${DOWNLOAD_FILE}.csv`);
    if (await writeOnce(file, salesReport(TENANTS[index]!.name))) summary.files += 1;
  }

  // Plans (a plan manager's list includes the inactive ones).
  const plans = (await billing.plans.list(actor)).data;
  for (const demo of PLANS) {
    if (plans.some((plan) => plan.name === demo.name)) continue;
    await billing.plans.create(PlanCreateSchema.parse(demo));
    summary.plans += 1;
  }

  // Contact messages, one of each status, spread over the last weeks.
  const inbox = await readAll((page) => contact.list(page));
  for (const demo of MESSAGES) {
    if (inbox.some((message) => message.email === demo.email && message.subject === demo.subject)) continue;
    const form = ContactCreateSchema.parse({
      name: demo.name,
      email: demo.email,
      company: demo.company,
      phone: demo.phone,
      subject: demo.subject,
      message: demo.message,
    });
    const sentAt = new Date(clock.now().getTime() - demo.daysAgo * 86_400_000 - 3_600_000);
    await insertSubmission(db, {
      name: form.name,
      email: form.email,
      company: form.company ?? null,
      phone: form.phone ?? null,
      subject: form.subject,
      message: form.message,
      source: form.source,
      status: demo.status,
      ip: null,
      userAgent: null,
      createdAt: sentAt,
      updatedAt: sentAt,
    });
    summary.contactMessages += 1;
  }

  return summary;
}
