import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../src/db/schema/index.js';
import { createRenewalWorker } from '../src/modules/billing/subscriptions/renewal.worker.js';
import { createRole } from './authz-fixtures.js';
import { advanceSandboxClock, API, createPlan, queryRows, savedCard, subscribe, TEST_CARD } from './billing.js';
import { createUser, useTestContext, type TestUser } from './harness.js';
import { isRecoveryMailTo, mailAfter, resetTokenFrom } from './mail.js';

/**
 * Concurrent requests on the same records. On a PostgreSQL server (TEST_DATABASE_URL) they really
 * interleave across the pool's connections; on PGlite they are serialised, and the answers must be
 * the same. Never a 5xx; exactly one winner where only one can win.
 */
const WAYS = 10;

interface Resource {
  name: string;
  create(index: number): Promise<string>;
  update: { method: 'PUT' | 'PATCH'; url: (id: string) => string; body: (index: number) => object };
  remove: (id: string) => string;
}

describe('races', () => {
  const { ctx, admin } = useTestContext();

  async function post(url: string, payload: object): Promise<string> {
    const response = await ctx.app.inject({ method: 'POST', url, headers: admin.headers, payload });
    if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json<{ id: string }>().id;
  }

  const tag = () => Math.random().toString(36).slice(2, 8);
  const resources: Resource[] = [
    {
      name: 'user',
      create: (i) => post('/api/v1/users/', { email: `race-${i}-${tag()}@example.com`, password: 'race-password-1' }),
      update: { method: 'PATCH', url: (id) => `/api/v1/users/${id}`, body: (i) => ({ full_name: `Renamed ${i}` }) },
      remove: (id) => `/api/v1/users/${id}`,
    },
    {
      name: 'role',
      create: (i) => post('/api/v1/authorization/roles', { name: `race-role-${i}-${tag()}` }),
      update: {
        method: 'PUT',
        url: (id) => `/api/v1/authorization/roles/${id}`,
        body: (i) => ({ name: `race-role-renamed-${i}-${tag()}` }),
      },
      remove: (id) => `/api/v1/authorization/roles/${id}`,
    },
    {
      name: 'permission',
      create: (i) => post('/api/v1/authorization/permissions', { name: `race:perm-${i}-${tag()}` }),
      update: {
        method: 'PUT',
        url: (id) => `/api/v1/authorization/permissions/${id}`,
        body: (i) => ({ description: `changed ${i}` }),
      },
      remove: (id) => `/api/v1/authorization/permissions/${id}`,
    },
    {
      name: 'tenant',
      create: (i) => post('/api/v1/tenants/', { name: `Race tenant ${i} ${tag()}` }),
      update: { method: 'PUT', url: (id) => `/api/v1/tenants/${id}`, body: (i) => ({ description: `changed ${i}` }) },
      remove: (id) => `/api/v1/tenants/${id}`,
    },
    {
      name: 'plan',
      create: (i) =>
        post('/api/v1/subscriptions/plans', {
          name: `Race plan ${i} ${tag()}`,
          description: 'Raced',
          price: '9.99',
          billing_period: 'monthly',
          features: [],
        }),
      update: {
        method: 'PATCH',
        url: (id) => `/api/v1/subscriptions/plans/${id}`,
        body: (i) => ({ description: `changed ${i}` }),
      },
      remove: (id) => `/api/v1/subscriptions/plans/${id}`,
    },
  ];

  for (const resource of resources) {
    it(`${resource.name}: ${WAYS} updates racing ${WAYS} deletes of the same records answer 2xx or 404, never 5xx`, async () => {
      const ids = await Promise.all(Array.from({ length: WAYS }, (_, i) => resource.create(i)));
      const answers = await Promise.all(
        ids.flatMap((id, i) => [
          ctx.app.inject({
            method: resource.update.method,
            url: resource.update.url(id),
            headers: admin.headers,
            payload: resource.update.body(i),
          }),
          ctx.app.inject({ method: 'DELETE', url: resource.remove(id), headers: admin.headers }),
        ]),
      );
      const updates = answers.filter((_, index) => index % 2 === 0);
      const deletes = answers.filter((_, index) => index % 2 === 1);
      for (const answer of updates) expect([200, 404], answer.body).toContain(answer.statusCode);
      for (const answer of deletes) expect(answer.statusCode, answer.body).toBeLessThan(300);

      // And one record hit by many at once: exactly one delete wins, the rest and late updates 404.
      const [id] = await Promise.all([resource.create(WAYS)]);
      const burst = await Promise.all(
        Array.from({ length: WAYS }, (_, i) =>
          i % 2 === 0
            ? ctx.app.inject({ method: 'DELETE', url: resource.remove(id), headers: admin.headers })
            : ctx.app.inject({
                method: resource.update.method,
                url: resource.update.url(id),
                headers: admin.headers,
                payload: resource.update.body(i),
              }),
        ),
      );
      const removed = burst.filter((answer, i) => i % 2 === 0 && answer.statusCode < 300);
      expect(burst.filter((answer) => answer.statusCode >= 500)).toEqual([]);
      expect(removed).toHaveLength(1);
      for (const answer of burst) expect([200, 204, 404], answer.body).toContain(answer.statusCode);
    });
  }

  it(`${WAYS} creates of the same role and tenant name: exactly one wins, the others 409`, async () => {
    for (const [url, payload] of [
      ['/api/v1/authorization/roles', { name: `same-role-${tag()}` }],
      ['/api/v1/tenants/', { name: `Same tenant ${tag()}` }],
    ] as const) {
      const answers = await Promise.all(
        Array.from({ length: WAYS }, () => ctx.app.inject({ method: 'POST', url, headers: admin.headers, payload })),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(
        statuses.filter((status) => status < 300),
        url,
      ).toHaveLength(1);
      expect(
        statuses.filter((status) => status === 409),
        url,
      ).toHaveLength(WAYS - 1);
    }
  });

  it(`${WAYS} sign-ups with the same address: one account, the same answer to all`, async () => {
    const email = `same-signup-${tag()}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: WAYS }, () =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/v1/users/signup',
          payload: {
            email,
            password: 'same-signup-password-1',
            confirm_password: 'same-signup-password-1',
            full_name: 'Same Signup',
          },
        }),
      ),
    );
    // Sign-up answers every address alike (no account enumeration): count the accounts instead.
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 201));
    expect(await ctx.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
  });

  it(`a reset link used ${WAYS} times at once works exactly once`, async () => {
    const user = await createUser(ctx);
    const mail = await mailAfter(ctx, isRecoveryMailTo(user.email), () =>
      ctx.app.inject({ method: 'POST', url: `/api/v1/password-recovery/${encodeURIComponent(user.email)}` }),
    );
    const token = resetTokenFrom(ctx, mail.text);
    const answers = await Promise.all(
      Array.from({ length: WAYS }, (_, i) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/v1/reset-password/',
          payload: { token, new_password: `raced-password-${i}` },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(WAYS - 1);
  });

  describe('plans that grant roles (decision 046): each role granted and withdrawn once', () => {
    const DAY = 24 * 60 * 60;

    async function grantActions(userId: string) {
      const rows = await queryRows<{ action: string; cause: string }>(
        ctx,
        sql`select action, coalesce(after, before)->>'cause' as cause from audit_log
            where target_id = ${userId} and action in ('plan_role.grant', 'plan_role.withdraw') order by id`,
      );
      return rows.map((row) => `${row.action}:${row.cause}`);
    }

    async function planWithRole() {
      const role = await createRole(ctx);
      const plan = await createPlan(ctx, admin, { name: `Race plan ${tag()}` });
      const edited = await ctx.app.inject({
        method: 'PATCH',
        url: `${API}/plans/${plan.id}`,
        headers: admin.headers,
        payload: { role_ids: [role.id] },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      return { role, plan };
    }

    const advance = (user: TestUser, seconds: number) => advanceSandboxClock(ctx, admin, user.id, seconds);

    it(`PLAN-ROLES-10: a subscribe clicked ${WAYS} times at once charges and grants once`, async () => {
      const { plan } = await planWithRole();
      const user = await createUser(ctx);
      const card = await savedCard(ctx, user, TEST_CARD.success, true);
      const answers = await Promise.all(Array.from({ length: WAYS }, () => subscribe(ctx, user, plan.id, card.id)));
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(WAYS - 1);
      expect(await grantActions(user.id)).toEqual(['plan_role.grant:subscribed']);
    });

    it(`PLAN-ROLES-11: two renewal workers and ${WAYS} clock moves at once end a cancelled period once`, async () => {
      const { plan } = await planWithRole();
      const user = await createUser(ctx);
      const card = await savedCard(ctx, user, TEST_CARD.success, true);
      expect((await subscribe(ctx, user, plan.id, card.id)).statusCode).toBe(200);
      const services = ctx.app.services;
      // A second instance's worker: the same code on its own claims, the same database.
      const second = createRenewalWorker({
        db: ctx.database.db,
        clock: ctx.clock,
        log: ctx.app.log,
        hasPermission: services.authz.hasPermission,
        audit: services.audit,
        metrics: { renewalFailed: () => undefined, studioQueryExecuted: () => undefined },
        config: ctx.config.billing,
        provider: services.billing.sandbox!,
      });
      // Renewed twice first (each period charged once), then cancelled and ended.
      const later = new Date(ctx.clock.now().getTime() + 62 * DAY * 1000);
      await Promise.all([
        advance(user, 62 * DAY),
        second.runDueFor(user.id, later),
        services.billing.renewals.runDueFor(user.id, later),
      ]);
      const renewals = await queryRows<{ total: number }>(
        ctx,
        sql`select count(*)::int as total from transactions where user_id = ${user.id} and kind = 'renewal'`,
      );
      expect(renewals[0]!.total).toBe(2);
      expect(
        (await ctx.app.inject({ method: 'POST', url: `${API}/subscription/cancel`, headers: user.headers })).statusCode,
      ).toBe(200);
      const answers = await Promise.all(Array.from({ length: WAYS }, () => advance(user, 31 * DAY)));
      expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
      expect(await grantActions(user.id)).toEqual(['plan_role.grant:subscribed', 'plan_role.withdraw:period_ended']);
    });

    it(`PLAN-ROLES-12: a provider's ending event delivered ${WAYS} times at once, redelivered and out of order, withdraws once`, async () => {
      const { plan } = await planWithRole();
      const user = await createUser(ctx);
      const card = await savedCard(ctx, user, TEST_CARD.success, true);
      expect((await subscribe(ctx, user, plan.id, card.id)).statusCode).toBe(200);
      const [customer] = await queryRows<{ provider_customer_id: string }>(
        ctx,
        sql`select provider_customer_id from billing_customers where user_id = ${user.id}`,
      );
      const created = Math.floor(ctx.clock.now().getTime() / 1000) + 60;
      const { webhooks } = ctx.app.services.billing;
      const deliveries = Array.from({ length: WAYS }, (_, i) =>
        webhooks.handleEvent({
          // Half are redeliveries of one event, half other events saying the same, in any order.
          id: i % 2 === 0 ? `evt_race_${user.id}` : `evt_race_${user.id}_${i}`,
          type: 'customer.deleted',
          created: created - i,
          data: { object: { id: customer!.provider_customer_id } },
        }),
      );
      const outcomes = await Promise.all(deliveries);
      expect(outcomes.filter((outcome) => outcome === 'duplicate').length).toBeGreaterThanOrEqual(WAYS / 2 - 1);
      expect(await grantActions(user.id)).toEqual(['plan_role.grant:subscribed', 'plan_role.withdraw:provider_event']);
    });
  });
});
