import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  ContactCreateSchema,
  DOWNLOAD_ROLE_PREFIX,
  PAGE_LIMIT_MAX,
  PERMISSIONS,
  PlanCreateSchema,
  ReportCreateSchema,
  RoleCreateSchema,
  STUDIO_EXTRACT_CONTENT_TYPES,
  TenantCreateSchema,
  UserCreateSchema,
  type ContactStatus,
  type PaginationQuery,
  type PermissionName,
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

/** Every demo account's password: printed by `npm run db:seed` and written in the README. */
export const DEMO_PASSWORD = 'demo-password';

/** The file the demo download role grants, in FILES_DIR (and a copy of its own in each demo tenant's folder). */
const DOWNLOAD_FILE = 'sales_report';

interface DemoUser {
  email: string;
  fullName: string;
  isActive?: boolean;
}

/** 24 people: with the first superuser, 25 accounts, three pages of the admin console's users tab. */
const USERS: DemoUser[] = [
  { email: 'ana.silva@example.com', fullName: 'Ana Silva' },
  { email: 'ben.okafor@example.com', fullName: 'Ben Okafor' },
  { email: 'chloe.martin@example.com', fullName: 'Chloé Martin' },
  { email: 'daniel.kim@example.com', fullName: 'Daniel Kim' },
  { email: 'emma.johansson@example.com', fullName: 'Emma Johansson' },
  { email: 'farid.haddad@example.com', fullName: 'Farid Haddad' },
  { email: 'grace.liu@example.com', fullName: 'Grace Liu' },
  { email: 'hiroshi.tanaka@example.com', fullName: 'Hiroshi Tanaka' },
  { email: 'isabel.rossi@example.com', fullName: 'Isabel Rossi' },
  { email: 'jamal.wright@example.com', fullName: 'Jamal Wright' },
  { email: 'katarzyna.nowak@example.com', fullName: 'Katarzyna Nowak' },
  { email: 'liam.oconnor@example.com', fullName: "Liam O'Connor" },
  { email: 'maya.patel@example.com', fullName: 'Maya Patel' },
  { email: 'nikolai.petrov@example.com', fullName: 'Nikolai Petrov' },
  { email: 'olivia.brown@example.com', fullName: 'Olivia Brown' },
  { email: 'pedro.alves@example.com', fullName: 'Pedro Alves' },
  { email: 'quinn.murphy@example.com', fullName: 'Quinn Murphy' },
  { email: 'rosa.fernandez@example.com', fullName: 'Rosa Fernández' },
  { email: 'samuel.osei@example.com', fullName: 'Samuel Osei' },
  { email: 'tara.singh@example.com', fullName: 'Tara Singh' },
  { email: 'umar.farouk@example.com', fullName: 'Umar Farouk', isActive: false },
  { email: 'valentina.cruz@example.com', fullName: 'Valentina Cruz', isActive: false },
  { email: 'wei.zhang@example.com', fullName: 'Wei Zhang' },
  { email: 'yara.haddad@example.com', fullName: 'Yara Haddad', isActive: false },
];

interface DemoRole {
  name: string;
  description: string;
  permissions: PermissionName[];
  members: string[];
}

const ROLES: DemoRole[] = [
  {
    name: 'support',
    description: 'Answers the contact inbox and looks up accounts',
    permissions: [PERMISSIONS.usersRead, PERMISSIONS.contactRead, PERMISSIONS.contactWrite],
    members: ['ana.silva@example.com', 'ben.okafor@example.com'],
  },
  {
    name: 'auditor',
    description: 'Reads the audit log and the catalogues; changes nothing',
    permissions: [PERMISSIONS.auditRead, PERMISSIONS.usersRead, PERMISSIONS.rolesRead, PERMISSIONS.tenantsRead],
    members: ['chloe.martin@example.com'],
  },
  {
    name: 'tenant_manager',
    description: 'Creates tenants, checks their databases and manages their members',
    permissions: [PERMISSIONS.tenantsRead, PERMISSIONS.tenantsWrite, PERMISSIONS.usersRead],
    members: ['daniel.kim@example.com'],
  },
  {
    name: 'billing_manager',
    description: 'Maintains the subscription plans',
    permissions: [PERMISSIONS.plansWrite],
    members: ['emma.johansson@example.com'],
  },
  {
    name: 'studio_author',
    description: 'Writes Studio reports and uploads extracts in the tenants they belong to',
    permissions: [PERMISSIONS.reportsWrite, PERMISSIONS.sourcesWrite],
    members: ['maya.patel@example.com', 'isabel.rossi@example.com'],
  },
  {
    name: `${DOWNLOAD_ROLE_PREFIX}${DOWNLOAD_FILE}`,
    description: 'Downloads the monthly sales report (Settings → Download)',
    permissions: [],
    members: [
      'farid.haddad@example.com',
      'grace.liu@example.com',
      'hiroshi.tanaka@example.com',
      'maya.patel@example.com',
    ],
  },
];

interface DemoTenant {
  name: string;
  description: string;
  /** A URL the server accepts; in local mode nothing listens there, so "check connection" reports why. */
  dburl: string;
  members: string[];
}

const TENANTS: DemoTenant[] = [
  {
    name: 'Acme Health',
    description: 'Hospital network: price-transparency pipeline and payer dashboards',
    dburl: 'postgresql://acme_app:acme-demo-password@localhost:5432/acme_health',
    members: [
      'farid.haddad@example.com',
      'grace.liu@example.com',
      'isabel.rossi@example.com',
      'jamal.wright@example.com',
      'katarzyna.nowak@example.com',
      'maya.patel@example.com',
    ],
  },
  {
    name: 'Globex Analytics',
    description: 'Retail analytics: declarative reports replacing a desktop BI tool',
    dburl: 'postgresql://globex_app:globex-demo-password@localhost:5432/globex',
    members: [
      'hiroshi.tanaka@example.com',
      'liam.oconnor@example.com',
      'maya.patel@example.com',
      'nikolai.petrov@example.com',
      'olivia.brown@example.com',
    ],
  },
];

const PLANS = [
  {
    name: 'Starter',
    description: 'For one analyst exploring declarative reports.',
    price: '9.00',
    billing_period: 'monthly',
    features: ['1 workspace', '5 dashboards', 'Daily data refresh', 'Community support'],
    is_active: true,
  },
  {
    name: 'Team',
    description: 'For teams that share dashboards and scheduled reports.',
    price: '49.00',
    billing_period: 'monthly',
    features: ['10 workspaces', 'Unlimited dashboards', 'Hourly data refresh', 'Scheduled report e-mails'],
    is_active: true,
  },
  {
    name: 'Enterprise',
    description: 'For organisations running BI at scale, billed once a year.',
    price: '4990.00',
    billing_period: 'annual',
    features: ['Unlimited workspaces', 'Single sign-on', 'Multi-tenant deployment', 'Automated site replication'],
    is_active: true,
  },
  {
    name: 'Legacy Basic',
    description: 'Retired: kept for its last subscribers, offered to no one new.',
    price: '5.00',
    billing_period: 'monthly',
    features: ['1 workspace', '3 dashboards'],
    is_active: false,
  },
] as const;

interface DemoMessage {
  name: string;
  email: string;
  company?: string;
  phone?: string;
  subject: string;
  message: string;
  status: ContactStatus;
  daysAgo: number;
}

const MESSAGES: DemoMessage[] = [
  {
    name: 'Priya Raman',
    email: 'priya.raman@example.org',
    company: 'Northwind Clinics',
    phone: '+1 555 0100',
    subject: 'Price transparency pipeline for 40 hospitals',
    message: 'We need the machine-readable files of 40 hospitals loaded every month. Can we talk this week?',
    status: 'new',
    daysAgo: 0,
  },
  {
    name: 'Tom Becker',
    email: 'tom.becker@example.net',
    company: 'Becker Logistics',
    subject: 'Replacing our desktop BI tool',
    message: 'Our licences renew in March. How long does a move of about 60 dashboards usually take?',
    status: 'new',
    daysAgo: 1,
  },
  {
    name: 'Best SEO Offers',
    email: 'offers@example.net',
    subject: 'Rank first on every search today',
    message: 'Guaranteed first place for your site, limited offer, reply now to claim it!!!',
    status: 'spam',
    daysAgo: 2,
  },
  {
    name: 'Lena Fischer',
    email: 'lena.fischer@example.org',
    company: 'Fischer Energie',
    subject: 'Data lake cost review',
    message: 'Our cloud bill for the data lake doubled this year. Do you offer a one-off cost and performance review?',
    status: 'read',
    daysAgo: 3,
  },
  {
    name: 'Carlos Mendes',
    email: 'carlos.mendes@example.org',
    phone: '+351 555 0199',
    subject: 'Studio trial extension',
    message: 'Could our Studio trial run two more weeks? The finance team joins the evaluation only next Monday.',
    status: 'replied',
    daysAgo: 6,
  },
  {
    name: 'Sofia Rossi',
    email: 'sofia.rossi@example.org',
    company: 'Rossi & Partners',
    subject: 'Partnership enquiry',
    message: 'We implement reporting for mid-sized insurers and would like to resell the platform in Italy.',
    status: 'archived',
    daysAgo: 20,
  },
];

/** The demo tenant that gets Studio's extract and its report (a hospital network: price data fits it). */
const STUDIO_TENANT = 'Acme Health';
/** The extract's name: its table's name in the tenant's `extract` source. */
const STUDIO_EXTRACT = 'acme_rates';
const STUDIO_REPORT_SLUG = 'acme-rates-by-payer';

/**
 * A small price file as a hospital network publishes it: every hospital's negotiated rate for six
 * services with five payers' three plan types (360 rows), plus cash price and gross charge. The
 * numbers come from a fixed-seed generator, so every run writes the same file.
 */
function acmeRatesCsv(): string {
  const services = [
    ['99213', 'Office visit, established patient, 20 to 29 minutes', 95],
    ['99214', 'Office visit, established patient, 30 to 39 minutes', 140],
    ['70450', 'CT scan of the head, without contrast', 420],
    ['73721', 'MRI of a leg joint, without contrast', 780],
    ['80053', 'Comprehensive metabolic panel', 28],
    ['45378', 'Colonoscopy, diagnostic', 1050],
  ] as const;
  const payers = [
    ['Aetna', 1.05],
    ['Blue Cross Blue Shield', 0.95],
    ['Cigna', 1.1],
    ['UnitedHealthcare', 1],
    ['Medicaid', 0.6],
  ] as const;
  const hospitals = [
    ['Acme General Hospital', 1.15],
    ['Acme Riverside Medical Center', 1],
    ['Acme Northside Clinic', 0.85],
    ['Acme Valley Hospital', 0.95],
  ] as const;
  const plans = [
    ['PPO', 1.1],
    ['HMO', 0.9],
    ['EPO', 1],
  ] as const;
  let state = 20_261_127;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const money = (value: number) => value.toFixed(2);
  const lines = ['hospital,billing_code,service,payer,plan_type,negotiated_rate,cash_price,gross_charge'];
  for (const [hospital, hospitalFactor] of hospitals) {
    for (const [code, service, base] of services) {
      const gross = base * hospitalFactor * 2.6;
      const cash = base * hospitalFactor * 1.2;
      for (const [payer, payerFactor] of payers) {
        for (const [plan, planFactor] of plans) {
          const rate = base * hospitalFactor * payerFactor * planFactor * (0.85 + 0.3 * random());
          lines.push([hospital, code, `"${service}"`, payer, plan, money(rate), money(cash), money(gross)].join(','));
        }
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

const STUDIO_REPORT = `title: Acme Health rates by payer
description: >-
  The negotiated rates in Acme Health's uploaded price file: the typical rate for one service, how
  the payers compare, and every rate by hospital.
source: extract
params:
  code:
    label: Billing code
    type: select
    options: SELECT DISTINCT billing_code FROM ${STUDIO_EXTRACT} ORDER BY billing_code
    default: "99213"
blocks:
  - id: median_rate
    title: Median negotiated rate
    kpi:
      sql: SELECT median(negotiated_rate) AS median_rate FROM ${STUDIO_EXTRACT} WHERE billing_code = :code
      value: median_rate
      format: currency
  - id: cash_price
    title: Median cash price
    kpi:
      sql: SELECT median(cash_price) AS cash_price FROM ${STUDIO_EXTRACT} WHERE billing_code = :code
      value: cash_price
      format: currency
  - id: by_payer
    title: Median negotiated rate by payer
    chart:
      sql: >-
        SELECT payer, median(negotiated_rate) AS median_rate FROM ${STUDIO_EXTRACT}
        WHERE billing_code = :code GROUP BY payer ORDER BY median_rate DESC
      spec:
        mark: { type: bar, tooltip: true }
        encoding:
          y: { field: payer, type: nominal, sort: "-x", title: Payer }
          x: { field: median_rate, type: quantitative, title: Median negotiated rate, axis: { format: "$,.0f" } }
  - id: rates
    title: Every rate for the code
    table:
      sql: >-
        SELECT hospital, payer, plan_type, negotiated_rate, cash_price, gross_charge FROM ${STUDIO_EXTRACT}
        WHERE billing_code = :code ORDER BY hospital, payer, plan_type
      page_size: 20
`;

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
