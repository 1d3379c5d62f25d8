import type { Subscription, Transactions } from '@dataplatform/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../app.js';
import { addMoney } from '../../../lib/money.js';
import { API, createPlan, getJson, queryRows, savedCard, subscribe, TEST_CARD } from '../../../../test/billing.js';
import { createTestContext, createUser, login, type TestContext, type TestUser } from '../../../../test/harness.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('renewals', () => {
  let ctx: TestContext;
  let admin: TestUser;
  /** Everyone signed in, and when: moving the clock by months outlives tokens, so they sign in again. */
  const people: { user: TestUser; signedInAt: number }[] = [];
  const track = (user: TestUser) => people.push({ user, signedInAt: ctx.clock.now().getTime() });

  beforeAll(async () => {
    // The timer is off: the tests move the clock and run the worker themselves.
    ctx = await createTestContext({
      env: {
        RENEWAL_POLL_INTERVAL_SECONDS: '0',
        RENEWAL_RETRY_DELAYS_HOURS: '24,72,120',
        ACCESS_TOKEN_EXPIRE_MINUTES: String(365 * 24 * 60),
      },
    });
    admin = await createUser(ctx, { isSuperuser: true });
    track(admin);
  });
  afterAll(() => ctx.close());

  async function subscribed(price: string, number: string = TEST_CARD.success) {
    const plan = await createPlan(ctx, admin, { name: `Renew ${price} ${Math.random()}`, price });
    const user = await createUser(ctx);
    track(user);
    const card = await savedCard(ctx, user, number);
    const response = await subscribe(ctx, user, plan.id, card.id);
    expect(response.statusCode, response.body).toBe(200);
    return { user, plan, card, subscription: response.json<Subscription>() };
  }

  /** Sandbox payments for one user: what the processor was actually asked to charge. */
  async function providerCharges(user: TestUser) {
    return queryRows<{ status: string; amount_minor: string }>(
      ctx,
      sql`select status, amount_minor::text from sandbox_payment_intents
          where metadata->>'user_id' = ${user.id} order by created_at, id`,
    );
  }

  async function advance(ms: number) {
    ctx.clock.advance(ms);
    for (const person of people) {
      if (ctx.clock.now().getTime() - person.signedInAt < 300 * DAY) continue;
      const { user } = person;
      user.headers.authorization = `Bearer ${await login(ctx, user.email, user.password)}`;
      person.signedInAt = ctx.clock.now().getTime();
    }
  }

  const jumpTo = (date: string | Date) => advance(new Date(date).getTime() - ctx.clock.now().getTime() + 1);

  it('charges the default card at period end and extends the period; 12 months of 19.99 make 239.88', async () => {
    const { user, subscription } = await subscribed('19.99');
    let periodEnd = subscription.current_period_end;
    // Nothing is due before the period ends.
    await advance(DAY);
    await ctx.app.services.billing.renewals.runOnce();
    expect((await getJson<Transactions>(ctx, user, '/transactions')).count).toBe(1);

    for (let month = 1; month < 12; month += 1) {
      await jumpTo(periodEnd);
      await ctx.app.services.billing.renewals.runOnce();
      const current = await getJson<Subscription>(ctx, user, '/subscription');
      expect(current.status).toBe('active');
      expect(current.current_period_start).toBe(periodEnd);
      expect(new Date(current.current_period_end).getTime()).toBeGreaterThan(new Date(periodEnd).getTime());
      periodEnd = current.current_period_end;
    }

    const history = await getJson<Transactions>(ctx, user, '/transactions?limit=100');
    expect(history.count).toBe(12);
    expect(history.data.every((row) => row.status === 'succeeded' && row.amount === '19.99')).toBe(true);
    expect(addMoney(...history.data.map((row) => row.amount))).toBe('239.88');
    const [total] = await queryRows<{ total: string }>(
      ctx,
      sql`select sum(amount)::text as total from transactions where user_id = ${user.id}`,
    );
    expect(total!.total).toBe('239.88');
    const charges = await providerCharges(user);
    expect(charges).toHaveLength(12);
    expect(charges.every((charge) => charge.amount_minor === '1999')).toBe(true);
  }, 120_000);

  it('on failure goes past_due, retries on schedule, recovers when a good card becomes default', async () => {
    const { user, subscription } = await subscribed('7.50');
    const failing = await savedCard(ctx, user, TEST_CARD.chargeFails, true);
    expect(failing.is_default).toBe(true);

    await jumpTo(subscription.current_period_end);
    await ctx.app.services.billing.renewals.runOnce();
    let current = await getJson<Subscription>(ctx, user, '/subscription');
    expect(current.status).toBe('past_due');
    expect(current.current_period_end).toBe(subscription.current_period_end);

    // Not retried before the first delay (24 h) has passed.
    await advance(23 * HOUR);
    await ctx.app.services.billing.renewals.runOnce();
    expect((await providerCharges(user)).length).toBe(2);

    const good = (
      await getJson<{ data: { id: string; last_four: string }[] }>(ctx, user, '/payment-methods')
    ).data.find((card) => card.last_four === '4242')!;
    await ctx.app.inject({ method: 'POST', url: `${API}/payment-methods/${good.id}/default`, headers: user.headers });
    await advance(2 * HOUR);
    await ctx.app.services.billing.renewals.runOnce();
    current = await getJson<Subscription>(ctx, user, '/subscription');
    expect(current.status).toBe('active');
    expect(current.current_period_start).toBe(subscription.current_period_end);

    const history = await getJson<Transactions>(ctx, user, '/transactions');
    expect(history.data.map((row) => [row.status, row.error_message])).toEqual([
      ['succeeded', null],
      ['failed', 'Your card was declined.'],
      ['succeeded', null],
    ]);
  });

  it('cancels after the last retry fails', async () => {
    const { user, subscription } = await subscribed('3.00');
    await savedCard(ctx, user, TEST_CARD.chargeFails, true);

    await jumpTo(subscription.current_period_end);
    for (const delayHours of [0, 24, 72, 120]) {
      await advance(delayHours * HOUR);
      await ctx.app.services.billing.renewals.runOnce();
    }
    expect(await getJson<Subscription | null>(ctx, user, '/subscription')).toBeNull();
    const [row] = await queryRows<{ status: string; failed_attempts: number }>(
      ctx,
      sql`select status, failed_attempts from subscriptions where user_id = ${user.id}`,
    );
    expect(row).toEqual({ status: 'canceled', failed_attempts: 4 });
    const history = await getJson<Transactions>(ctx, user, '/transactions');
    expect(history.data.map((entry) => entry.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'succeeded']);

    // Nothing more is charged afterwards.
    await advance(60 * DAY);
    await ctx.app.services.billing.renewals.runOnce();
    expect(await providerCharges(user)).toHaveLength(5);
  });

  it('ends a subscription cancelled at period end instead of renewing it', async () => {
    const { user, subscription } = await subscribed('4.00');
    await ctx.app.inject({ method: 'POST', url: `${API}/subscription/cancel`, headers: user.headers });

    await advance(DAY);
    await ctx.app.services.billing.renewals.runOnce();
    expect(await getJson<Subscription>(ctx, user, '/subscription')).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
    });

    await jumpTo(subscription.current_period_end);
    await ctx.app.services.billing.renewals.runOnce();
    expect(await getJson<Subscription | null>(ctx, user, '/subscription')).toBeNull();
    expect(await providerCharges(user)).toHaveLength(1);
  });

  it('two server instances renewing at once charge each subscription exactly once', async () => {
    const customers = await Promise.all(['1.00', '2.00', '3.00', '4.00', '5.00'].map((price) => subscribed(price)));
    const second = await buildApp(ctx.config, { database: ctx.database, clock: ctx.clock });
    await second.ready();
    try {
      const latestEnd = Math.max(
        ...customers.map((entry) => new Date(entry.subscription.current_period_end).getTime()),
      );
      await jumpTo(new Date(latestEnd));
      const [first, other] = await Promise.all([
        ctx.app.services.billing.renewals.runOnce(),
        second.services.billing.renewals.runOnce(),
      ]);
      expect(first + other).toBeGreaterThanOrEqual(customers.length);
      await Promise.all([ctx.app.services.billing.renewals.runOnce(), second.services.billing.renewals.runOnce()]);

      for (const { user, subscription } of customers) {
        expect(await providerCharges(user)).toHaveLength(2);
        const history = await getJson<Transactions>(ctx, user, '/transactions');
        expect(history.data.map((row) => row.status)).toEqual(['succeeded', 'succeeded']);
        const current = await getJson<Subscription>(ctx, user, '/subscription');
        expect(current.current_period_start).toBe(subscription.current_period_end);
      }
    } finally {
      await second.close();
    }
  });
});
