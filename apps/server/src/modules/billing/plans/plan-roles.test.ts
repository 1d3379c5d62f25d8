import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type {
  Plan,
  PlanRoleGrants,
  RolesPublic,
  SandboxAdvanceResult,
  Subscription,
  UserMe,
} from '@dataplatform/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../../../../test/authz-fixtures.js';
import {
  advanceSandboxClock,
  API,
  createPaymentIntent,
  queryRows,
  savedCard,
  subscribe,
  TEST_CARD,
} from '../../../../test/billing.js';
import { createTestContext, createUser, type TestContext, type TestUser } from '../../../../test/harness.js';

const DAY = 24 * 60 * 60;

/**
 * Plans that grant roles while they are paid for (PLAN-ROLES requirements, decision 046): every
 * rule through the HTTP API, on the sandbox provider, its test clock moving billing time.
 */
describe('plans that grant roles', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let filesDir: string;

  beforeAll(async () => {
    filesDir = mkdtempSync(path.join(tmpdir(), 'plan-roles-files-'));
    writeFileSync(path.join(filesDir, 'premium_report.csv'), 'region,total\nnorth,12\n');
    ctx = await createTestContext({
      env: { FILES_DIR: filesDir, RENEWAL_POLL_INTERVAL_SECONDS: '0', RENEWAL_RETRY_DELAYS_HOURS: '24,72' },
    });
    admin = await createUser(ctx, { isSuperuser: true });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(filesDir, { recursive: true, force: true });
  });

  function planRequest(method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>) {
    return ctx.app.inject({ method, url: `${API}${url}`, headers: admin.headers, payload });
  }

  async function planGranting(roleIds: string[], name = `Plan ${Math.random()}`): Promise<Plan> {
    const response = await planRequest('POST', '/plans', {
      name,
      description: 'Grants roles',
      price: '9.00',
      billing_period: 'monthly',
      features: ['Downloads'],
      role_ids: roleIds,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Plan>();
  }

  async function subscribed(plan: Plan, number: string = TEST_CARD.success) {
    const user = await createUser(ctx);
    const card = await savedCard(ctx, user, number, true);
    const response = await subscribe(ctx, user, plan.id, card.id);
    expect(response.statusCode, response.body).toBe(200);
    return { user, card };
  }

  const download = (user: TestUser) =>
    ctx.app.inject({ method: 'GET', url: '/api/v1/files/download/premium_report', headers: user.headers });

  async function me(user: TestUser): Promise<UserMe> {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: user.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<UserMe>();
  }

  async function advance(user: TestUser, seconds: number): Promise<SandboxAdvanceResult> {
    const response = await advanceSandboxClock(ctx, admin, user.id, seconds);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SandboxAdvanceResult>();
  }

  async function cancel(user: TestUser) {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/subscription/cancel`,
      headers: user.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Subscription>();
  }

  /** The plan grant and withdrawal entries of the audit log about one user, oldest first. */
  async function grantEntries(userId: string) {
    return queryRows<{ action: string; actor_id: string | null; role_id: string; cause: string }>(
      ctx,
      sql`select action, actor_id, coalesce(after, before)->>'role_id' as role_id,
                 coalesce(after, before)->>'cause' as cause
          from audit_log where target_type = 'user' and target_id = ${userId}
            and action in ('plan_role.grant', 'plan_role.withdraw')
          order by id`,
    );
  }

  async function planRolesOf(user: TestUser): Promise<PlanRoleGrants> {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/authorization/user/${user.id}/plan-roles`,
      headers: admin.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PlanRoleGrants>();
  }

  it('PLAN-ROLES-1: a plan names its roles on create and edit, by id and by name; an unknown role is a 422', async () => {
    const reader = await createRole(ctx, { name: `reader-${Math.random()}` });
    const writer = await createRole(ctx, { name: `writer-${Math.random()}` });
    const plan = await planGranting([writer.id, reader.id, writer.id]);
    expect([...plan.role_ids].sort()).toEqual([reader.id, writer.id].sort());
    expect(plan.roles.map((role) => role.name)).toEqual([reader.name, writer.name].sort());

    const listed = await ctx.app.inject({ method: 'GET', url: `${API}/plans`, headers: admin.headers });
    expect(listed.json<{ data: Plan[] }>().data.find((row) => row.id === plan.id)?.roles).toEqual(plan.roles);

    const edited = await planRequest('PATCH', `/plans/${plan.id}`, { role_ids: [reader.id] });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Plan>().role_ids).toEqual([reader.id]);
    // Other fields alone leave the roles as they are.
    const renamed = await planRequest('PATCH', `/plans/${plan.id}`, { name: 'Renamed' });
    expect(renamed.json<Plan>().role_ids).toEqual([reader.id]);

    const missing = '00000000-0000-4000-8000-000000000000';
    const unknown = await planRequest('PATCH', `/plans/${plan.id}`, { role_ids: [reader.id, missing] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json<{ detail: { loc: unknown[] }[] }>().detail[0]!.loc).toEqual(['body', 'role_ids', 1]);
    const created = await planRequest('POST', '/plans', {
      name: 'Unknown role',
      description: 'x',
      price: '1.00',
      billing_period: 'monthly',
      features: [],
      role_ids: [missing],
    });
    expect(created.statusCode).toBe(422);
    // Nothing half-written: the plan was not created, the edited one kept its roles.
    const after = await ctx.app.inject({ method: 'GET', url: `${API}/plans`, headers: admin.headers });
    const plans = after.json<{ data: Plan[] }>().data;
    expect(plans.some((row) => row.name === 'Unknown role')).toBe(false);
    expect(plans.find((row) => row.id === plan.id)?.role_ids).toEqual([reader.id]);
    expect((await planRequest('POST', '/plans', { role_ids: 'x' })).statusCode).toBe(422);
  });

  it('PLAN-ROLES-2: the walk — subscribe grants the download, cancel keeps it, the period end takes it; a hand copy survives', async () => {
    const role = await createRole(ctx, { name: 'download_premium_report' });
    const plan = await planGranting([role.id], 'Premium downloads');
    const user = await createUser(ctx);
    expect((await download(user)).statusCode).toBe(403);
    expect((await me(user)).roles).toEqual([]);

    const card = await savedCard(ctx, user, TEST_CARD.success, true);
    expect((await subscribe(ctx, user, plan.id, card.id)).statusCode).toBe(200);
    const granted = await download(user);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.body).toContain('north,12');
    expect((await me(user)).roles).toEqual(['download_premium_report']);
    expect((await planRolesOf(user)).data).toEqual([
      expect.objectContaining({ role_id: role.id, role_name: role.name, plan_id: plan.id, plan_name: plan.name }),
    ]);

    const canceled = await cancel(user);
    expect(canceled.cancel_at_period_end).toBe(true);
    expect((await download(user)).statusCode).toBe(200);
    // A day before the period ends: still paid for.
    await advance(user, 29 * DAY);
    expect((await download(user)).statusCode).toBe(200);
    const ended = await advance(user, 3 * DAY);
    expect(ended.subscription).toBeNull();
    expect(ended.handled).toBe(1);
    expect((await download(user)).statusCode).toBe(403);
    expect((await me(user)).roles).toEqual([]);
    expect((await planRolesOf(user)).data).toEqual([]);

    // The same role held both ways: the hand-assigned copy outlives the plan.
    const both = await createUser(ctx);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/authorization/user-role',
      headers: admin.headers,
      payload: { user_id: both.id, role_id: role.id },
    });
    const bothCard = await savedCard(ctx, both, TEST_CARD.success, true);
    expect((await subscribe(ctx, both, plan.id, bothCard.id)).statusCode).toBe(200);
    expect((await me(both)).roles).toEqual(['download_premium_report']);
    await cancel(both);
    await advance(both, 32 * DAY);
    expect((await download(both)).statusCode).toBe(200);
    const handRoles = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/authorization/user/${both.id}/roles`,
      headers: admin.headers,
    });
    expect(handRoles.json<RolesPublic>().data.map((row) => row.id)).toEqual([role.id]);

    expect(await grantEntries(user.id)).toEqual([
      { action: 'plan_role.grant', actor_id: user.id, role_id: role.id, cause: 'subscribed' },
      { action: 'plan_role.withdraw', actor_id: null, role_id: role.id, cause: 'period_ended' },
    ]);
    expect(await grantEntries(both.id)).toEqual([
      { action: 'plan_role.grant', actor_id: both.id, role_id: role.id, cause: 'subscribed' },
      { action: 'plan_role.withdraw', actor_id: null, role_id: role.id, cause: 'period_ended' },
    ]);
    const clockEntries = await queryRows<{ actor_id: string; after: { offset_seconds: number } }>(
      ctx,
      sql`select actor_id, after from audit_log where action = 'sandbox_clock.advance' and target_id = ${user.id} order by id`,
    );
    expect(clockEntries.map((row) => [row.actor_id, row.after.offset_seconds])).toEqual([
      [admin.id, 29 * DAY],
      [admin.id, 32 * DAY],
    ]);
  });

  it('PLAN-ROLES-3: permission checks honour a plan-granted role; renewals keep it; switching plans swaps roles', async () => {
    const usersReader = await createRole(ctx, { grants: ['users:read'] });
    const other = await createRole(ctx);
    const shared = await createRole(ctx);
    const first = await planGranting([usersReader.id, shared.id]);
    const second = await planGranting([other.id, shared.id]);
    const { user, card } = await subscribed(first);
    const readOther = () => ctx.app.inject({ method: 'GET', url: `/api/v1/users/${admin.id}`, headers: user.headers });
    expect((await readOther()).statusCode).toBe(200);

    const renewed = await advance(user, 31 * DAY);
    expect(renewed.handled).toBe(1);
    expect(renewed.subscription?.status).toBe('active');
    expect((await readOther()).statusCode).toBe(200);

    expect((await subscribe(ctx, user, second.id, card.id)).statusCode).toBe(200);
    expect((await readOther()).statusCode).toBe(403);
    expect((await me(user)).roles).toEqual([other.name, shared.name].sort());
    expect(await grantEntries(user.id)).toEqual(
      expect.arrayContaining([
        { action: 'plan_role.withdraw', actor_id: user.id, role_id: usersReader.id, cause: 'plan_switched' },
        { action: 'plan_role.grant', actor_id: user.id, role_id: other.id, cause: 'plan_switched' },
      ]),
    );
    // The role both plans grant was neither withdrawn nor granted again.
    expect((await grantEntries(user.id)).filter((entry) => entry.role_id === shared.id)).toHaveLength(1);
    expect(await grantEntries(user.id)).toHaveLength(4);
  });

  it('PLAN-ROLES-4: a plan whose roles change passes the change on to its live subscribers at once', async () => {
    const before = await createRole(ctx);
    const added = await createRole(ctx);
    const plan = await planGranting([before.id]);
    const { user } = await subscribed(plan);
    const edited = await planRequest('PATCH', `/plans/${plan.id}`, { role_ids: [added.id] });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await me(user)).roles).toEqual([added.name]);
    expect((await grantEntries(user.id)).slice(1)).toEqual(
      expect.arrayContaining([
        { action: 'plan_role.withdraw', actor_id: admin.id, role_id: before.id, cause: 'plan_roles_changed' },
        { action: 'plan_role.grant', actor_id: admin.id, role_id: added.id, cause: 'plan_roles_changed' },
      ]),
    );
  });

  it('PLAN-ROLES-5: a failed renewal keeps the roles while retries remain and takes them when it ends the subscription', async () => {
    const role = await createRole(ctx);
    const plan = await planGranting([role.id]);
    const { user } = await subscribed(plan);
    // The only card now fails every charge.
    const failing = await savedCard(ctx, user, TEST_CARD.chargeFails, true);
    expect(failing.is_default).toBe(true);
    const pastDue = await advance(user, 31 * DAY);
    expect(pastDue.subscription?.status).toBe('past_due');
    expect((await me(user)).roles).toEqual([role.name]);
    expect((await advance(user, 25 * 3600)).subscription?.status).toBe('past_due');
    expect((await me(user)).roles).toEqual([role.name]);
    const ended = await advance(user, 73 * 3600);
    expect(ended.subscription).toBeNull();
    expect((await me(user)).roles).toEqual([]);
    expect((await grantEntries(user.id)).at(-1)).toEqual({
      action: 'plan_role.withdraw',
      actor_id: null,
      role_id: role.id,
      cause: 'renewal_failed',
    });
  });

  it('PLAN-ROLES-6: cancelling a past-due subscription and deleting the account withdraw the roles', async () => {
    const role = await createRole(ctx);
    const plan = await planGranting([role.id]);
    const { user } = await subscribed(plan);
    await savedCard(ctx, user, TEST_CARD.chargeFails, true);
    expect((await advance(user, 31 * DAY)).subscription?.status).toBe('past_due');
    expect((await cancel(user)).status).toBe('canceled');
    expect((await me(user)).roles).toEqual([]);
    expect((await grantEntries(user.id)).at(-1)?.cause).toBe('canceled');

    const leaving = (await subscribed(plan)).user;
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${leaving.id}`,
      headers: admin.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await grantEntries(leaving.id)).toEqual([
      { action: 'plan_role.grant', actor_id: leaving.id, role_id: role.id, cause: 'subscribed' },
      { action: 'plan_role.withdraw', actor_id: null, role_id: role.id, cause: 'account_deleted' },
    ]);
  });

  it('PLAN-ROLES-7: the provider deleting the customer ends the subscription and its roles once, however often it is told', async () => {
    const role = await createRole(ctx);
    const plan = await planGranting([role.id]);
    const { user } = await subscribed(plan);
    const [customer] = await queryRows<{ provider_customer_id: string }>(
      ctx,
      sql`select provider_customer_id from billing_customers where user_id = ${user.id}`,
    );
    const event = {
      id: `evt_${user.id}`,
      type: 'customer.deleted',
      created: Math.floor(ctx.clock.now().getTime() / 1000) + 60,
      data: { object: { id: customer!.provider_customer_id, object: 'customer' } },
    };
    const { webhooks } = ctx.app.services.billing;
    expect(await webhooks.handleEvent(event)).toBe('applied');
    expect(await webhooks.handleEvent(event)).toBe('duplicate');
    // Another delivery of the same deletion under a new id changes nothing more.
    expect(await webhooks.handleEvent({ ...event, id: `${event.id}_again` })).toBe('applied');
    expect((await me(user)).roles).toEqual([]);
    const current = await ctx.app.inject({ method: 'GET', url: `${API}/subscription`, headers: user.headers });
    expect(current.json()).toBeNull();
    expect(await grantEntries(user.id)).toEqual([
      { action: 'plan_role.grant', actor_id: user.id, role_id: role.id, cause: 'subscribed' },
      { action: 'plan_role.withdraw', actor_id: null, role_id: role.id, cause: 'provider_event' },
    ]);
  });

  it('PLAN-ROLES-8: a payment older than the end of the subscription does not bring it (or its roles) back', async () => {
    const role = await createRole(ctx);
    const plan = await planGranting([role.id]);
    const user = await createUser(ctx);
    await savedCard(ctx, user, TEST_CARD.success, true);
    const intent = await createPaymentIntent(ctx, user, plan.id);
    expect(intent.statusCode, intent.body).toBe(201);
    const { id: paymentId } = intent.json<{ id: string }>();
    const [customer] = await queryRows<{ provider_customer_id: string }>(
      ctx,
      sql`select provider_customer_id from billing_customers where user_id = ${user.id}`,
    );
    const createdAt = Math.floor(ctx.clock.now().getTime() / 1000);
    const { webhooks } = ctx.app.services.billing;
    // The payment succeeds and grants; the customer's deletion ends it; the success is delivered again late.
    const succeeded = {
      id: `evt_pi_${paymentId}`,
      type: 'payment_intent.succeeded',
      created: createdAt + 1,
      data: { object: { id: paymentId, created: createdAt } },
    };
    expect(await webhooks.handleEvent(succeeded)).toBe('applied');
    expect((await me(user)).roles).toEqual([role.name]);
    await webhooks.handleEvent({
      id: `evt_cus_${user.id}`,
      type: 'customer.deleted',
      created: createdAt + 5,
      data: { object: { id: customer!.provider_customer_id } },
    });
    expect((await me(user)).roles).toEqual([]);
    expect(await webhooks.handleEvent({ ...succeeded, id: `${succeeded.id}_redelivered` })).toBe('applied');
    expect((await me(user)).roles).toEqual([]);
    expect((await grantEntries(user.id)).map((entry) => entry.action)).toEqual([
      'plan_role.grant',
      'plan_role.withdraw',
    ]);
  });

  it('PLAN-ROLES-9: replacing hand roles neither removes nor lists a plan-granted role', async () => {
    const role = await createRole(ctx);
    const plan = await planGranting([role.id]);
    const { user } = await subscribed(plan);
    const replaced = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/authorization/user/${user.id}/roles`,
      headers: admin.headers,
      payload: [],
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json<RolesPublic>().data).toEqual([]);
    expect((await me(user)).roles).toEqual([role.name]);
    expect((await planRolesOf(user)).count).toBe(1);
    const unknownUser = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/authorization/user/00000000-0000-4000-8000-000000000000/plan-roles',
      headers: admin.headers,
    });
    expect(unknownUser.statusCode).toBe(404);
  });

  it('SANDBOX-CLOCK-1: the clock moves one customer only, its seconds are checked, and an unknown user is a 422', async () => {
    const plan = await planGranting([]);
    const { user } = await subscribed(plan);
    const { user: bystander } = await subscribed(plan);
    const moved = await advance(user, 40 * DAY);
    expect(moved.offset_seconds).toBe(40 * DAY);
    expect(moved.subscription?.current_period_start).not.toBe(moved.subscription?.created_at);
    const still = await ctx.app.inject({ method: 'GET', url: `${API}/subscription`, headers: bystander.headers });
    expect(new Date(still.json<Subscription>().current_period_end).getTime()).toBeGreaterThan(
      ctx.clock.now().getTime(),
    );
    const transactions = await queryRows<{ kind: string }>(
      ctx,
      sql`select kind from transactions where user_id = ${bystander.id}`,
    );
    expect(transactions.map((row) => row.kind)).toEqual(['subscribe']);

    for (const seconds of [0, -5, 1.5, 3 * 366 * DAY + 1, '60']) {
      const response = await advanceSandboxClock(ctx, admin, user.id, seconds);
      expect(response.statusCode, String(seconds)).toBe(422);
    }
    const unknown = await advanceSandboxClock(ctx, admin, '00000000-0000-4000-8000-000000000000', 60);
    expect(unknown.statusCode).toBe(422);
    const plain = await advanceSandboxClock(ctx, user, user.id, 60);
    expect(plain.statusCode).toBe(403);
  });
});

describe('the sandbox clock in production', () => {
  it('SANDBOX-CLOCK-2: is a 404, and the web app is told it is off', async () => {
    const ctx = await createTestContext({ config: { environment: 'production' } });
    try {
      const admin = await createUser(ctx, { isSuperuser: true });
      const response = await advanceSandboxClock(ctx, admin, admin.id, 60);
      expect(response.statusCode).toBe(404);
      const config = await ctx.app.inject({ method: 'GET', url: `${API}/config`, headers: admin.headers });
      expect(config.json()).toMatchObject({ provider: 'sandbox', sandbox_clock: false });
    } finally {
      await ctx.close();
    }
  }, 120_000);
});
