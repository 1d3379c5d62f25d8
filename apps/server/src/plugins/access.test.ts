import { randomUUID } from 'node:crypto';
import {
  ALL_PERMISSIONS,
  DOWNLOAD_ROLE_PREFIX,
  PERMISSIONS,
  userMessages,
  type PermissionName,
} from '@dataplatform/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createRole } from '../../test/authz-fixtures.js';
import { createTestContext, createUser, type TestContext, type TestUser } from '../../test/harness.js';
import type { Access } from './auth.js';
import { ACCESS_EXTENSION, API_PREFIX } from './swagger.js';

/**
 * The access matrix: every operation of the OpenAPI document, called by an anonymous caller, a
 * plain user, a user holding exactly the needed permission through a role, a user holding every
 * permission but that one, and a superuser. Each must get 401 / 403 / through as its declared access
 * level says. Routes added by any area are walked as soon as they are registered; the lists below
 * are the only places that name operations, and they must be edited on purpose.
 */

/** Operations anyone may call without a token. A route declared `public` and not listed here fails. */
const PUBLIC_OPERATIONS = new Set([
  'POST /api/v1/login/access-token',
  // Log in's second step: its challenge token (from a right password) and a code are its proof (TOTP-LOGIN-1).
  'POST /api/v1/login/two-factor',
  'POST /api/v1/password-recovery/{email}',
  'POST /api/v1/reset-password/',
  'POST /api/v1/users/signup',
  // The mailed link's token is its proof, whoever follows it (VERIFY-2).
  'POST /api/v1/verify-email/',
  'POST /api/v1/contact/',
  // Single sign-on: starting it, the provider's redirect back, and the one-time code's exchange and link step.
  'POST /api/v1/sso/start',
  'GET /api/v1/sso/callback',
  'POST /api/v1/sso/exchange',
  'POST /api/v1/sso/link',
  // Stripe (or the sandbox) calls it; the Stripe-Signature over the raw body is its authentication.
  'POST /api/v1/subscriptions/webhook',
  // A share link's report and its runs: the link's token is the grant, rate-limited per link (issue 58).
  'GET /api/v1/studio/public/{token}',
  'POST /api/v1/studio/public/{token}/run',
  'GET /api/v1/studio/public/{token}/charts/{block}.svg',
  'GET /api/v1/studio/public/{token}/charts/{block}.png',
  // An embedded report and its runs: a token signed with the tenant's embed secret is the grant.
  'POST /api/v1/studio/embed/report',
  'POST /api/v1/studio/embed/run',
  // The lessons' sample files (issue 60): public-domain data a lesson's plain link downloads.
  'GET /api/v1/learn/samples/{file}',
  'POST /api/v1/studio/embed/charts/{block}.svg',
  'POST /api/v1/studio/embed/charts/{block}.png',
]);

/**
 * Operations any signed-in user may call, with no permission. A route declared `user` and not
 * listed here (or in RESOURCE_SCOPED) fails: an admin route that "forgot" its permission shows up.
 */
const SIGNED_IN_OPERATIONS = new Set([
  'POST /api/v1/login/test-token',
  'POST /api/v1/logout',
  'GET /api/v1/users/me',
  'PATCH /api/v1/users/me',
  'DELETE /api/v1/users/me',
  'PATCH /api/v1/users/me/password',
  // The caller's own address: where its verification stands, and a new link (VERIFY-3).
  'GET /api/v1/users/me/email-verification',
  'POST /api/v1/users/me/email-verification',
  // The caller's own two-factor sign-in (TOTP-ENROL-1, TOTP-DISABLE-1).
  'GET /api/v1/users/me/two-factor',
  'POST /api/v1/users/me/two-factor/setup',
  'POST /api/v1/users/me/two-factor/confirm',
  'POST /api/v1/users/me/two-factor/disable',
  // Own sessions only: the service reads and revokes by (session id, caller), another's id is a 404.
  'GET /api/v1/users/me/sessions',
  'DELETE /api/v1/users/me/sessions/{session_id}',
  'POST /api/v1/users/me/sessions/revoke-others',
  'GET /api/v1/users/me/tenants',
  // Needs X-Tenant-ID naming a tenant the caller belongs to; the tenant-context plugin checks that.
  'GET /api/v1/tenants/current/tables',
  // Billing: each person's own plans view, cards, subscription and history (scoped to the caller).
  'GET /api/v1/subscriptions/config',
  'GET /api/v1/subscriptions/plans',
  'GET /api/v1/subscriptions/payment-methods',
  'POST /api/v1/subscriptions/payment-methods',
  'DELETE /api/v1/subscriptions/payment-methods/{payment_method_id}',
  'POST /api/v1/subscriptions/payment-methods/{payment_method_id}/default',
  'GET /api/v1/subscriptions/subscription',
  'POST /api/v1/subscriptions/subscription/cancel',
  'GET /api/v1/subscriptions/transactions',
  'POST /api/v1/subscriptions/sandbox/payment-methods',
  'POST /api/v1/subscriptions/sandbox/payment-intents/{payment_intent_id}/confirm',
  // Studio: the demo source is every signed-in user's; a tenant's sources need X-Tenant-ID naming
  // a tenant the caller belongs to (the tenant-context plugin checks that).
  'GET /api/v1/studio/sources',
  'GET /api/v1/studio/sources/{source_id}/tables',
  // Studio reports: the built-ins for everyone, a tenant's own to its members (X-Tenant-ID, checked by
  // the tenant-context plugin); another tenant's report is a 404 (STUDIO-REPORT-3).
  'GET /api/v1/studio/reports',
  'GET /api/v1/studio/reports/{report_id}',
  'GET /api/v1/studio/reports/{report_id}/versions',
  'POST /api/v1/studio/reports/{report_id}/run',
  'POST /api/v1/studio/reports/{report_id}/export',
  'GET /api/v1/studio/reports/{report_id}/charts/{block}.svg',
  'GET /api/v1/studio/reports/{report_id}/charts/{block}.png',
  'GET /api/v1/studio/reports/{report_id}/params/{param}/options',
  'GET /api/v1/studio/reports/{report_id}/versions/{version}',
  // What the caller may do in Studio (the editor shows or hides its write actions by it).
  'GET /api/v1/studio/access',
  // Studio extracts: the list of the tenant chosen with X-Tenant-ID (a member's, checked by the
  // tenant-context plugin); uploading and deleting need sources:write (STUDIO-SOURCE-5).
  'GET /api/v1/studio/extracts',
  // Whether a model is configured and whether the caller holds agent:use, so /Agent says which.
  'GET /api/v1/agent/status',
  // Learn (issue 60): the lessons, a check on the chosen tenant (a member's, checked by the
  // tenant-context plugin) and the reset of one's own progress, the sample files the lessons upload.
  'GET /api/v1/learn/lessons',
  'GET /api/v1/learn/lessons/{slug}',
  'POST /api/v1/learn/lessons/{slug}/check',
  'DELETE /api/v1/learn/progress/{slug}',
]);

/**
 * Operations for signed-in users whose e-mail address is verified (`access: 'verified'`, decision
 * 029): the same user with an unverified address gets 403 `email_not_verified`. A route declared so
 * and not listed here (or in RESOURCE_SCOPED) fails.
 */
const VERIFIED_OPERATIONS = new Set([
  'POST /api/v1/subscriptions/subscribe/{plan_id}',
  'POST /api/v1/subscriptions/payment-intent',
]);

/**
 * Operations open to signed-in users at the route but guarded per resource in the service: a plain
 * user asking for someone else's resource gets 403, and `grant` says what makes it allowed.
 */
type Grant = { permission: PermissionName } | { role: (params: Record<string, string>) => string };
const RESOURCE_SCOPED: Record<string, { grant: Grant; why: string }> = {
  'GET /api/v1/users/{user_id}': {
    grant: { permission: PERMISSIONS.usersRead },
    why: 'anyone reads their own record; other records need users:read',
  },
  'GET /api/v1/files/download/{filename}': {
    grant: { role: (params) => `${DOWNLOAD_ROLE_PREFIX}${params.filename}` },
    why: 'a file needs the role download_{filename}',
  },
};

/**
 * Operations for superusers alone (`access: 'superuser'`): no role or permission lets anyone else
 * in. A route declared so and not listed here fails.
 */
const SUPERUSER_OPERATIONS = new Set([
  // Signing someone out everywhere (decision 027).
  'POST /api/v1/users/{user_id}/sessions/revoke',
  // Turning off someone's lost second factor (decision 026).
  'POST /api/v1/users/{user_id}/two-factor/reset',
  'GET /api/v1/sso/connections',
  'POST /api/v1/sso/connections',
  'PUT /api/v1/sso/connections/{connection_id}',
  'DELETE /api/v1/sso/connections/{connection_id}',
  // The sandbox's test clock moves a customer's billing time (decision 046).
  'POST /api/v1/subscriptions/sandbox/advance',
]);

/** Answers fixed by a business rule rather than access, with the reason. */
const RULE_OUTCOMES: Record<string, { superuser?: number; why: string }> = {
  'DELETE /api/v1/users/me': { superuser: 403, why: 'superusers may not delete themselves' },
};

type Persona =
  | 'anonymous'
  | 'plain user'
  | 'user with an unverified address'
  | 'holder of the needed grant'
  | 'holder of every other permission'
  | 'superuser';

interface Operation {
  key: string;
  method: string;
  path: string;
  access: Access | undefined;
  pathParams: { name: string; format: string | undefined }[];
  hasBody: boolean;
}

interface OpenApiOperation {
  [ACCESS_EXTENSION]?: Access;
  parameters?: { in: string; name: string; schema?: { format?: string } }[];
  requestBody?: unknown;
}

function operationsOf(document: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      access: operation[ACCESS_EXTENSION],
      pathParams: (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'path')
        .map((parameter) => ({ name: parameter.name, format: parameter.schema?.format })),
      hasBody: operation.requestBody !== undefined,
    })),
  );
}

/** What is wrong with the declared access levels, as messages; empty when all is well. */
function accessViolations(operations: Operation[]): string[] {
  const violations: string[] = [];
  const keys = new Set(operations.map((operation) => operation.key));
  for (const operation of operations) {
    const { key, access } = operation;
    if (!key.split(' ')[1]!.startsWith(`${API_PREFIX}/`)) violations.push(`${key} is outside ${API_PREFIX}`);
    if (access === undefined) {
      violations.push(`${key} declares no access level in the OpenAPI document`);
    } else if (access === 'public') {
      if (!PUBLIC_OPERATIONS.has(key)) {
        violations.push(`${key} is public but not in PUBLIC_OPERATIONS: guard it, or list it if anyone may call it`);
      }
    } else if (access === 'user') {
      if (!SIGNED_IN_OPERATIONS.has(key) && !(key in RESOURCE_SCOPED)) {
        violations.push(
          `${key} is open to every signed-in user but not in SIGNED_IN_OPERATIONS: give it a permission, or list it`,
        );
      }
    } else if (access === 'verified') {
      if (!VERIFIED_OPERATIONS.has(key) && !(key in RESOURCE_SCOPED)) {
        violations.push(`${key} needs a verified address but is not in VERIFIED_OPERATIONS: list it on purpose`);
      }
    } else if (access === 'superuser') {
      if (!SUPERUSER_OPERATIONS.has(key)) {
        violations.push(`${key} is for superusers only but not in SUPERUSER_OPERATIONS: list it on purpose`);
      }
    } else if (!ALL_PERMISSIONS.includes(access.permission)) {
      violations.push(`${key} needs "${access.permission}", which is not in ALL_PERMISSIONS`);
    }
  }
  for (const key of [
    ...PUBLIC_OPERATIONS,
    ...SIGNED_IN_OPERATIONS,
    ...VERIFIED_OPERATIONS,
    ...SUPERUSER_OPERATIONS,
    ...Object.keys(RESOURCE_SCOPED),
  ]) {
    if (!keys.has(key)) violations.push(`${key} is listed but no longer exists`);
  }
  return violations;
}

const ctx: TestContext = await createTestContext();
afterAll(() => ctx.close());

const openApi = await ctx.app.inject(`${API_PREFIX}/openapi.json`);
const operations = operationsOf(openApi.json());

describe('declared access levels', () => {
  it('the document lists the operations of every area', () => {
    expect(operations.length).toBeGreaterThan(30);
    expect(operations.map((operation) => operation.key)).toEqual(
      expect.arrayContaining([
        'GET /api/v1/users/',
        'PUT /api/v1/authorization/user/{user_id}/roles',
        'GET /api/v1/audit/',
        'GET /api/v1/files/download/{filename}',
      ]),
    );
  });

  it('every operation declares one, public and open-to-all ones are listed on purpose', () => {
    expect(accessViolations(operations)).toEqual([]);
  });

  it('flags a new route that is public, or open to any user, without being listed', () => {
    const added: Operation[] = [
      {
        key: 'DELETE /api/v1/things/{id}',
        method: 'DELETE',
        path: '',
        access: 'public',
        pathParams: [],
        hasBody: false,
      },
      { key: 'POST /api/v1/things/', method: 'POST', path: '', access: 'user', pathParams: [], hasBody: true },
      { key: 'GET /api/v1/things/', method: 'GET', path: '', access: undefined, pathParams: [], hasBody: false },
    ];
    const violations = accessViolations([...operations, ...added]);
    expect(violations).toHaveLength(3);
    expect(violations[0]).toContain('DELETE /api/v1/things/{id} is public but not in PUBLIC_OPERATIONS');
    expect(violations[1]).toContain('POST /api/v1/things/ is open to every signed-in user');
    expect(violations[2]).toContain('GET /api/v1/things/ declares no access level');
  });
});

/**
 * `/metrics` is an operations endpoint beside /healthz and /readyz: outside /api/v1, its sessions and
 * its document, guarded by METRICS_TOKEN alone (decision 050; plugins/metrics.test.ts tests the token).
 * Unset, as here, it does not exist for anyone.
 */
describe('GET /metrics, outside the API', () => {
  it('is not an operation of the document, and answers 404 to every caller while METRICS_TOKEN is unset', async () => {
    expect(operations.filter((operation) => operation.path.includes('metrics'))).toEqual([]);
    const callers = [undefined, await createUser(ctx), await createUser(ctx, { isSuperuser: true })];
    for (const caller of callers) {
      const response = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: caller?.headers ?? {} });
      expect(response.statusCode).toBe(404);
    }
  });
});

/** A request that passes no guard by accident: made-up ids, an empty JSON body. */
async function call(operation: Operation, params: Record<string, string>, user: TestUser | undefined) {
  const url = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]!));
  return ctx.app.inject({
    method: operation.method as 'GET',
    url,
    headers: user?.headers ?? {},
    ...(operation.hasBody ? { payload: {} } : {}),
  });
}

function paramsFor(operation: Operation): Record<string, string> {
  return Object.fromEntries(
    operation.pathParams.map((param) => [
      param.name,
      param.format === 'uuid' ? randomUUID() : param.format === 'email' ? 'nobody@example.com' : 'nonexistent',
    ]),
  );
}

function describeResponse(response: LightMyRequestResponse) {
  return `${response.statusCode} ${response.body.slice(0, 200)}`;
}

function expectThrough(response: LightMyRequestResponse) {
  expect([401, 403], describeResponse(response)).not.toContain(response.statusCode);
  expect(response.statusCode, describeResponse(response)).toBeLessThan(500);
}

function expectStatus(response: LightMyRequestResponse, status: number) {
  expect(response.statusCode, describeResponse(response)).toBe(status);
  if (status === 401 || status === 403) expect(response.json()).toHaveProperty('detail');
}

describe.each(operations.filter((operation) => operation.access !== undefined))('$key', (operation) => {
  const access = operation.access!;
  const scoped = RESOURCE_SCOPED[operation.key];
  const rule = RULE_OUTCOMES[operation.key];
  const neededPermission = typeof access === 'object' ? access.permission : undefined;

  /** Fresh users for each case: some operations sign out or delete their caller. */
  async function persona(kind: Persona, params: Record<string, string>): Promise<TestUser | undefined> {
    switch (kind) {
      case 'anonymous':
        return undefined;
      case 'plain user':
        return createUser(ctx);
      case 'user with an unverified address':
        return createUser(ctx, { verified: false });
      case 'superuser':
        return createUser(ctx, { isSuperuser: true });
      case 'holder of the needed grant': {
        const user = await createUser(ctx);
        const grant = scoped?.grant ?? (neededPermission ? { permission: neededPermission } : undefined);
        if (grant && 'permission' in grant) await createRole(ctx, { grants: [grant.permission], userIds: [user.id] });
        if (grant && 'role' in grant) await createRole(ctx, { name: grant.role(params), userIds: [user.id] });
        return user;
      }
      case 'holder of every other permission': {
        const user = await createUser(ctx);
        const others = ALL_PERMISSIONS.filter((permission) => permission !== neededPermission);
        await createRole(ctx, { grants: others, userIds: [user.id] });
        return user;
      }
    }
  }

  async function callAs(kind: Persona) {
    const params = paramsFor(operation);
    return call(operation, params, await persona(kind, params));
  }

  if (access === 'public') {
    it.each(['anonymous', 'plain user', 'superuser'] as const)('lets %s through', async (kind) => {
      expectThrough(await callAs(kind));
    });
    return;
  }

  it('answers 401 to an anonymous caller', async () => {
    const response = await callAs('anonymous');
    expectStatus(response, 401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
  });

  it('answers 401 to a made-up token', async () => {
    const params = paramsFor(operation);
    const forged = { id: '', email: '', password: '', token: 'x', headers: { authorization: 'Bearer not.a.token' } };
    expectStatus(await call(operation, params, forged), 401);
  });

  if (access === 'verified') {
    it('answers 403 email_not_verified to a user whose address is not verified', async () => {
      const response = await callAs('user with an unverified address');
      expectStatus(response, 403);
      expect(response.json()).toMatchObject({ code: 'email_not_verified' });
    });
  }

  if (access === 'superuser') {
    it('answers 403 to a plain user', async () => {
      expectStatus(await callAs('plain user'), 403);
    });
    it('answers 403 to a user holding every permission through a role', async () => {
      const response = await callAs('holder of every other permission');
      expectStatus(response, 403);
      expect(response.json()).toEqual({ detail: userMessages.notEnoughPrivileges, code: 'permission_denied' });
    });
  } else if (neededPermission || scoped) {
    it('answers 403 to a plain user', async () => {
      expectStatus(await callAs('plain user'), 403);
    });
    it(`lets through a user holding exactly ${neededPermission ?? 'the grant'} through a role`, async () => {
      expectThrough(await callAs('holder of the needed grant'));
    });
  } else {
    it('lets a plain user through', async () => {
      expectThrough(await callAs('plain user'));
    });
  }

  if (neededPermission) {
    it(`answers 403 to a user holding every permission but ${neededPermission}`, async () => {
      const response = await callAs('holder of every other permission');
      expectStatus(response, 403);
      expect(response.json()).toEqual({ detail: userMessages.notEnoughPrivileges, code: 'permission_denied' });
    });
  }

  it(
    rule?.superuser ? `answers ${rule.superuser} to a superuser (${rule.why})` : 'lets a superuser through',
    async () => {
      const response = await callAs('superuser');
      if (rule?.superuser) expectStatus(response, rule.superuser);
      else expectThrough(response);
    },
  );
});
