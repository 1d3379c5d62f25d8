import type { Plan, Plans } from '@dataplatform/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, createPlan, getJson, queryRows, savedCard, subscribe, TEST_CARD } from '../../../../test/billing.js';
import { createTestContext, createUser, detailOf, type TestContext, type TestUser } from '../../../../test/harness.js';

describe('subscription plans', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let user: TestUser;

  beforeAll(async () => {
    ctx = await createTestContext({ env: { RENEWAL_POLL_INTERVAL_SECONDS: '0' } });
    admin = await createUser(ctx, { isSuperuser: true });
    user = await createUser(ctx);
  });
  afterAll(() => ctx.close());

  it('creates a plan with an exact decimal price, trimmed features and the configured currency', async () => {
    const plan = await createPlan(ctx, admin, { name: 'Exact', price: '19.9' });
    expect(plan).toMatchObject({
      name: 'Exact',
      description: 'Everything a team needs',
      price: '19.90',
      currency: 'usd',
      billing_period: 'monthly',
      features: ['Unlimited extracts', 'Priority support'],
      is_active: true,
      provider_price_id: null,
    });
    const stored = await queryRows<{ price: string }>(
      ctx,
      sql`select price::text as price from plans where id = ${plan.id}`,
    );
    expect(stored).toEqual([{ price: '19.90' }]);
  });

  it('accepts a JSON number price as the decimal it spells, and refuses anything that is not exact money', async () => {
    const fromNumber = await createPlan(ctx, admin, { name: 'Number', price: 0.29 });
    expect(fromNumber.price).toBe('0.29');
    for (const price of ['19.999', '1e3', '-5', 'abc', '0', '0.00', 12345678901, '']) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `${API}/plans`,
        headers: admin.headers,
        payload: { name: 'Bad', description: 'Bad price', price, billing_period: 'monthly', features: [] },
      });
      expect(response.statusCode, String(price)).toBe(422);
      expect(JSON.stringify(response.json())).toMatch(/Price must be/);
    }
    const badPeriod = await ctx.app.inject({
      method: 'POST',
      url: `${API}/plans`,
      headers: admin.headers,
      payload: { name: 'Bad', description: 'Bad period', price: '1', billing_period: 'weekly', features: [] },
    });
    expect(badPeriod.statusCode).toBe(422);
    expect(detailOf(badPeriod)).toBe('Billing period must be monthly or annual');
  });

  it('lists active plans cheapest first to everyone signed in, and inactive ones only to plan managers', async () => {
    const fresh = await createTestContext({ env: { RENEWAL_POLL_INTERVAL_SECONDS: '0' } });
    try {
      const boss = await createUser(fresh, { isSuperuser: true });
      const member = await createUser(fresh);
      await createPlan(fresh, boss, { name: 'Team', price: '100.00' });
      await createPlan(fresh, boss, { name: 'Starter', price: '9.99' });
      await createPlan(fresh, boss, { name: 'Hidden', price: '1.00', is_active: false });
      await createPlan(fresh, boss, { name: 'Growth', price: '10.00' });

      const seen = await getJson<Plans>(fresh, member, '/plans');
      expect(seen.data.map((plan) => plan.name)).toEqual(['Starter', 'Growth', 'Team']);
      expect(seen.count).toBe(3);
      const managed = await getJson<Plans>(fresh, boss, '/plans');
      expect(managed.data.map((plan) => plan.name)).toEqual(['Hidden', 'Starter', 'Growth', 'Team']);
      expect((await fresh.app.inject({ method: 'GET', url: `${API}/plans` })).statusCode).toBe(401);
    } finally {
      await fresh.close();
    }
  });

  it('needs plans:write to create, update, delete or price a plan', async () => {
    const plan = await createPlan(ctx, admin, { name: 'Guarded' });
    const attempts = [
      {
        method: 'POST' as const,
        url: `${API}/plans`,
        payload: { name: 'X', description: 'Y', price: '1', billing_period: 'monthly', features: [] },
      },
      { method: 'PATCH' as const, url: `${API}/plans/${plan.id}`, payload: { price: '0.01' } },
      { method: 'DELETE' as const, url: `${API}/plans/${plan.id}` },
      { method: 'POST' as const, url: `${API}/plans/${plan.id}/update-stripe-price` },
    ];
    for (const attempt of attempts) {
      const forbidden = await ctx.app.inject({ ...attempt, headers: user.headers });
      expect(forbidden.statusCode, attempt.url).toBe(403);
      expect(detailOf(forbidden)).toBe("The user doesn't have enough privileges");
      expect((await ctx.app.inject(attempt)).statusCode).toBe(401);
    }
    const unchanged = await getJson<Plans>(ctx, admin, '/plans');
    expect(unchanged.data.find((row) => row.id === plan.id)).toMatchObject({ price: '19.99' });
  });

  it('updates any subset of fields; a new price drops the stale provider price', async () => {
    const plan = await createPlan(ctx, admin, { name: 'Editable', price: '10.00' });
    const priced = await ctx.app.inject({
      method: 'POST',
      url: `${API}/plans/${plan.id}/update-stripe-price`,
      headers: admin.headers,
    });
    expect(priced.statusCode).toBe(200);
    expect(priced.json<Plan>().provider_price_id).toMatch(/^price_/);

    const renamed = await ctx.app.inject({
      method: 'PATCH',
      url: `${API}/plans/${plan.id}`,
      headers: admin.headers,
      payload: { name: 'Edited', features: ['One', ' ', 'Two'] },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Edited', features: ['One', 'Two'], price: '10.00' });
    expect(renamed.json<Plan>().provider_price_id).toBe(priced.json<Plan>().provider_price_id);

    const repriced = await ctx.app.inject({
      method: 'PATCH',
      url: `${API}/plans/${plan.id}`,
      headers: admin.headers,
      payload: { price: '12.5', is_active: false },
    });
    expect(repriced.json()).toMatchObject({ price: '12.50', is_active: false, provider_price_id: null });

    const missing = await ctx.app.inject({
      method: 'PATCH',
      url: `${API}/plans/3f1f6c1e-7a4b-4c47-9a4a-9f0f0e0e0e0e`,
      headers: admin.headers,
      payload: { name: 'Nope' },
    });
    expect(missing.statusCode).toBe(404);
    expect(detailOf(missing)).toBe('Plan not found');
  });

  it('refuses to delete a plan with active subscriptions, suggesting deactivation; deletes it once free', async () => {
    const plan = await createPlan(ctx, admin, { name: 'Popular' });
    const subscriber = await createUser(ctx);
    const card = await savedCard(ctx, subscriber, TEST_CARD.success);
    expect((await subscribe(ctx, subscriber, plan.id, card.id)).statusCode).toBe(200);

    const refused = await ctx.app.inject({ method: 'DELETE', url: `${API}/plans/${plan.id}`, headers: admin.headers });
    expect(refused.statusCode).toBe(409);
    expect(detailOf(refused)).toMatch(/Deactivate it instead/);

    const deactivated = await ctx.app.inject({
      method: 'PATCH',
      url: `${API}/plans/${plan.id}`,
      headers: admin.headers,
      payload: { is_active: false },
    });
    expect(deactivated.statusCode).toBe(200);
    // Existing subscribers keep a deactivated plan; new people do not see it.
    expect((await getJson<Plans>(ctx, user, '/plans')).data.map((row) => row.id)).not.toContain(plan.id);
    expect(await getJson(ctx, subscriber, '/subscription')).toMatchObject({ plan: { id: plan.id, is_active: false } });

    await ctx.app.inject({ method: 'DELETE', url: '/api/v1/users/me', headers: subscriber.headers });
    const removed = await ctx.app.inject({ method: 'DELETE', url: `${API}/plans/${plan.id}`, headers: admin.headers });
    expect(removed.statusCode).toBe(204);
    const again = await ctx.app.inject({ method: 'DELETE', url: `${API}/plans/${plan.id}`, headers: admin.headers });
    expect(again.statusCode).toBe(404);
  });
});
