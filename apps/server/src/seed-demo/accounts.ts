import { DOWNLOAD_ROLE_PREFIX, PERMISSIONS, type ContactStatus, type PermissionName } from '@dataplatform/contract';

// Who and what the demo seed (../seed-demo.ts) puts in: people, roles, tenants, plans and contact messages.

/** The file the demo download role grants, in FILES_DIR (and a copy of its own in each demo tenant's folder). */
export const DOWNLOAD_FILE = 'sales_report';

interface DemoUser {
  email: string;
  fullName: string;
  isActive?: boolean;
}

/** 24 people: with the first superuser, 25 accounts, three pages of the admin console's users tab. */
export const USERS: DemoUser[] = [
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

export const ROLES: DemoRole[] = [
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

export const TENANTS: DemoTenant[] = [
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

export const PLANS = [
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

export const MESSAGES: DemoMessage[] = [
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
