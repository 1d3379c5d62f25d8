import type { BillingConfig, PaymentIntent, PaymentMethods, Subscription, Transactions } from '@dataplatform/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  attachCard,
  createPaymentIntent,
  createPlan,
  getJson,
  queryRows,
  savedCard,
  subscribe,
  TEST_CARD,
  tokenizeCard,
  tokenizedCard,
} from '../../../../test/billing.js';
import { createTestContext, createUser, detailOf, type TestContext, type TestUser } from '../../../../test/harness.js';

describe('billing on the sandbox provider', () => {
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await createTestContext({ env: { RENEWAL_POLL_INTERVAL_SECONDS: '0' } });
    admin = await createUser(ctx, { isSuperuser: true });
  });
  afterAll(() => ctx.close());

  it('tells the web app the sandbox is live, with no publishable key', async () => {
    const user = await createUser(ctx);
    expect(await getJson<BillingConfig>(ctx, user, '/config')).toEqual({
      provider: 'sandbox',
      publishable_key: null,
      currency: 'usd',
      sandbox_clock: true,
    });
    expect((await ctx.app.inject({ method: 'GET', url: `${API}/config` })).statusCode).toBe(401);
  });

  describe('every Stripe test card, through the whole flow', () => {
    const declinedOnAttach = [
      { card: TEST_CARD.declined, reason: 'Your card was declined.' },
      { card: TEST_CARD.insufficientFunds, reason: 'Your card has insufficient funds.' },
      { card: TEST_CARD.expired, reason: 'Your card has expired.' },
      { card: TEST_CARD.incorrectCvc, reason: "Your card's security code is incorrect." },
    ];

    it('4242 4242 4242 4242: saved, subscribed, charged once, a succeeded transaction', async () => {
      const plan = await createPlan(ctx, admin, { name: 'Card 4242', price: '19.99' });
      const user = await createUser(ctx);
      const card = await savedCard(ctx, user, TEST_CARD.success);
      expect(card).toMatchObject({ card_type: 'visa', last_four: '4242', expiry_month: 12, is_default: true });

      const response = await subscribe(ctx, user, plan.id, card.id);
      expect(response.statusCode, response.body).toBe(200);
      const subscription = response.json<Subscription>();
      expect(subscription).toMatchObject({ status: 'active', cancel_at_period_end: false, plan: { id: plan.id } });
      const start = new Date(subscription.current_period_start);
      const end = new Date(subscription.current_period_end);
      expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12);

      expect(await getJson<Subscription>(ctx, user, '/subscription')).toEqual(subscription);
      const history = await getJson<Transactions>(ctx, user, '/transactions?skip=0&limit=10');
      expect(history.count).toBe(1);
      expect(history.data[0]).toMatchObject({
        amount: '19.99',
        currency: 'usd',
        status: 'succeeded',
        error_message: null,
        description: 'Card 4242 (monthly)',
      });
    });

    for (const { card, reason } of declinedOnAttach) {
      it(`${card}: refused when saved with "${reason}", nothing kept, nothing charged`, async () => {
        const user = await createUser(ctx);
        const response = await attachCard(ctx, user, await tokenizedCard(ctx, user, card));
        expect(response.statusCode).toBe(402);
        expect(detailOf(response)).toBe(reason);
        expect((await getJson<PaymentMethods>(ctx, user, '/payment-methods')).count).toBe(0);
        expect((await getJson<Transactions>(ctx, user, '/transactions')).count).toBe(0);
        expect(await getJson<Subscription | null>(ctx, user, '/subscription')).toBeNull();
      });
    }

    it('4000 0000 0000 0341: saved, but subscribing is a 402, a failed transaction and no subscription', async () => {
      const plan = await createPlan(ctx, admin, { name: 'Card 0341', price: '5.00' });
      const user = await createUser(ctx);
      const card = await savedCard(ctx, user, TEST_CARD.chargeFails);
      expect(card.last_four).toBe('0341');

      const response = await subscribe(ctx, user, plan.id, card.id);
      expect(response.statusCode).toBe(402);
      expect(detailOf(response)).toBe('Your card was declined.');
      expect(await getJson<Subscription | null>(ctx, user, '/subscription')).toBeNull();
      const history = await getJson<Transactions>(ctx, user, '/transactions');
      expect(history.data).toEqual([
        expect.objectContaining({ amount: '5.00', status: 'failed', error_message: 'Your card was declined.' }),
      ]);
    });
  });

  describe('the stand-in for the browser SDK', () => {
    it('refuses a number failing the Luhn check, a past expiry, a bad CVC and a real card', async () => {
      const user = await createUser(ctx);
      const luhn = await tokenizeCard(ctx, user, '4242424242424241');
      expect(luhn.statusCode).toBe(422);
      expect(detailOf(luhn)).toBe('Your card number is invalid.');

      const past = await ctx.app.inject({
        method: 'POST',
        url: `${API}/sandbox/payment-methods`,
        headers: user.headers,
        payload: { number: TEST_CARD.success, exp_month: 1, exp_year: 2020, cvc: '123' },
      });
      expect(past.statusCode).toBe(422);
      expect(detailOf(past)).toBe("Your card's expiration date is in the past.");

      for (const cvc of ['12', 'abc', '1234']) {
        const badCvc = await tokenizeCard(ctx, user, TEST_CARD.success, cvc);
        expect(badCvc.statusCode).toBe(422);
        expect(detailOf(badCvc)).toBe("Your card's security code is invalid.");
      }
      // Amex takes four digits.
      expect((await tokenizeCard(ctx, user, '378282246310005', '1234')).statusCode).toBe(201);

      const real = await tokenizeCard(ctx, user, '4111111111111111');
      expect(real.statusCode).toBe(402);
      expect(detailOf(real)).toMatch(/test mode, but used a non test card/);

      const anonymous = await ctx.app.inject({
        method: 'POST',
        url: `${API}/sandbox/payment-methods`,
        payload: { number: TEST_CARD.success, exp_month: 12, exp_year: 2099, cvc: '123' },
      });
      expect(anonymous.statusCode).toBe(401);
    });

    it('keeps brand, last four and expiry, never the number or the CVC, anywhere in the database', async () => {
      const user = await createUser(ctx);
      const response = await ctx.app.inject({
        method: 'POST',
        url: `${API}/sandbox/payment-methods`,
        headers: user.headers,
        payload: { number: '4000 0566 5566 5556', exp_month: 7, exp_year: 2099, cvc: '987' },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({
        card_type: 'visa',
        last_four: '5556',
        expiry_month: 7,
        expiry_year: 2099,
      });
      expect(response.body).not.toContain('4000056655665556');

      const tables = await queryRows<{ table_name: string }>(
        ctx,
        sql`select table_name from information_schema.tables where table_schema = 'public'`,
      );
      for (const { table_name: table } of tables) {
        const dump = await queryRows<{ row: string }>(
          ctx,
          sql`select row_to_json(t)::text as row from ${sql.identifier(table)} t`,
        );
        const text = dump.map((row) => row.row).join('\n');
        expect(text, table).not.toContain('4000056655665556');
        expect(text, table).not.toContain('"987"');
      }
    });
  });

  describe('payment methods', () => {
    it('makes the first card the default, honours is_default, promotes another when the default goes', async () => {
      const user = await createUser(ctx);
      const first = await savedCard(ctx, user, TEST_CARD.success);
      const second = await savedCard(ctx, user, '5555555555554444');
      expect(first.is_default).toBe(true);
      expect(second.is_default).toBe(false);
      const third = await savedCard(ctx, user, TEST_CARD.chargeFails, true);
      expect(third.is_default).toBe(true);

      let list = await getJson<PaymentMethods>(ctx, user, '/payment-methods');
      expect(list.count).toBe(3);
      expect(list.data.filter((card) => card.is_default).map((card) => card.id)).toEqual([third.id]);
      expect(list.data[0]!.id).toBe(third.id);

      const setDefault = await ctx.app.inject({
        method: 'POST',
        url: `${API}/payment-methods/${first.id}/default`,
        headers: user.headers,
      });
      expect(setDefault.statusCode).toBe(200);
      expect(setDefault.json()).toMatchObject({ id: first.id, is_default: true });

      const removed = await ctx.app.inject({
        method: 'DELETE',
        url: `${API}/payment-methods/${first.id}`,
        headers: user.headers,
      });
      expect(removed.statusCode).toBe(204);
      list = await getJson<PaymentMethods>(ctx, user, '/payment-methods');
      expect(list.count).toBe(2);
      expect(list.data.filter((card) => card.is_default)).toHaveLength(1);
      expect(list.data[0]).toMatchObject({ id: third.id, is_default: true });
    });

    it("treats another user's card as not found, and refuses a card saved twice", async () => {
      const owner = await createUser(ctx);
      const stranger = await createUser(ctx);
      const card = await savedCard(ctx, owner, TEST_CARD.success);
      for (const request of [
        { method: 'DELETE' as const, url: `${API}/payment-methods/${card.id}` },
        { method: 'POST' as const, url: `${API}/payment-methods/${card.id}/default` },
      ]) {
        const response = await ctx.app.inject({ ...request, headers: stranger.headers });
        expect(response.statusCode).toBe(404);
        expect(detailOf(response)).toBe('Payment method not found');
      }
      expect((await getJson<PaymentMethods>(ctx, owner, '/payment-methods')).count).toBe(1);

      const again = await attachCard(ctx, owner, card.provider_payment_method_id);
      expect(again.statusCode).toBe(409);
      const stolen = await attachCard(ctx, stranger, card.provider_payment_method_id);
      expect(stolen.statusCode).toBe(400);
      const unknown = await attachCard(ctx, owner, 'pm_doesnotexist');
      expect(unknown.statusCode).toBe(400);
      expect(detailOf(unknown)).toBe('The payment provider does not know this payment method');
      const malformed = await ctx.app.inject({
        method: 'DELETE',
        url: `${API}/payment-methods/not-a-uuid`,
        headers: owner.headers,
      });
      expect(malformed.statusCode).toBe(422);
    });

    it('needs a signed-in user for every payment method call', async () => {
      for (const request of [
        { method: 'GET' as const, url: `${API}/payment-methods` },
        { method: 'POST' as const, url: `${API}/payment-methods`, payload: { provider_payment_method_id: 'pm_x' } },
      ]) {
        expect((await ctx.app.inject(request)).statusCode).toBe(401);
      }
    });
  });

  describe('subscriptions', () => {
    it('switches plans without ever holding two, cancels at period end and resumes', async () => {
      const basic = await createPlan(ctx, admin, { name: 'Switch Basic', price: '0.10' });
      const plus = await createPlan(ctx, admin, { name: 'Switch Plus', price: '0.20', billing_period: 'annual' });
      const user = await createUser(ctx);
      const card = await savedCard(ctx, user, TEST_CARD.success);

      expect((await subscribe(ctx, user, basic.id, card.id)).statusCode).toBe(200);
      const again = await subscribe(ctx, user, basic.id, card.id);
      expect(again.statusCode).toBe(409);
      expect(detailOf(again)).toBe('You are already subscribed to this plan');

      const switched = await subscribe(ctx, user, plus.id, card.provider_payment_method_id);
      expect(switched.statusCode, switched.body).toBe(200);
      const subscription = switched.json<Subscription>();
      expect(subscription.plan.id).toBe(plus.id);
      const years =
        new Date(subscription.current_period_end).getUTCFullYear() -
        new Date(subscription.current_period_start).getUTCFullYear();
      expect(years).toBe(1);
      const live = await queryRows<{ total: number }>(
        ctx,
        sql`select count(*)::int as total from subscriptions where status in ('active', 'past_due')
            and user_id = ${user.id}`,
      );
      expect(live[0]!.total).toBe(1);

      const history = await getJson<Transactions>(ctx, user, '/transactions');
      expect(history.data.map((row) => [row.amount, row.status])).toEqual([
        ['0.20', 'succeeded'],
        ['0.10', 'succeeded'],
      ]);

      const cancel = await ctx.app.inject({ method: 'POST', url: `${API}/subscription/cancel`, headers: user.headers });
      expect(cancel.statusCode).toBe(200);
      expect(cancel.json()).toMatchObject({ status: 'active', cancel_at_period_end: true, plan: { id: plus.id } });
      expect(await getJson<Subscription>(ctx, user, '/subscription')).toMatchObject({
        status: 'active',
        cancel_at_period_end: true,
      });

      // Subscribing again to the same plan keeps it, with nothing charged.
      const resumed = await subscribe(ctx, user, plus.id, card.id);
      expect(resumed.statusCode).toBe(200);
      expect(resumed.json()).toMatchObject({ cancel_at_period_end: false, status: 'active' });
      expect((await getJson<Transactions>(ctx, user, '/transactions')).count).toBe(2);
    });

    it('refuses unknown and inactive plans, missing cards, mismatched ids and a cancel with nothing to cancel', async () => {
      const user = await createUser(ctx);
      const inactive = await createPlan(ctx, admin, { name: 'Retired', is_active: false });
      const plan = await createPlan(ctx, admin, { name: 'Available' });

      const noCards = await subscribe(ctx, user, plan.id, '3f1f6c1e-7a4b-4c47-9a4a-9f0f0e0e0e0e');
      expect(noCards.statusCode).toBe(400);
      expect(detailOf(noCards)).toBe('Please add a payment method first.');

      const card = await savedCard(ctx, user, TEST_CARD.success);
      expect(detailOf(await subscribe(ctx, user, inactive.id, card.id))).toBe(
        'This plan is not available for new subscriptions',
      );
      const missing = await subscribe(ctx, user, '3f1f6c1e-7a4b-4c47-9a4a-9f0f0e0e0e0e', card.id);
      expect(missing.statusCode).toBe(404);
      expect(detailOf(missing)).toBe('Plan not found');

      const mismatch = await ctx.app.inject({
        method: 'POST',
        url: `${API}/subscribe/${plan.id}`,
        headers: user.headers,
        payload: { payment_method_id: card.id, plan_id: inactive.id },
      });
      expect(mismatch.statusCode).toBe(400);

      const empty = await ctx.app.inject({
        method: 'POST',
        url: `${API}/subscribe/${plan.id}`,
        headers: user.headers,
        payload: { payment_method_id: '' },
      });
      expect(empty.statusCode).toBe(422);
      expect(detailOf(empty)).toBe('Please select a payment method');

      const cancel = await ctx.app.inject({ method: 'POST', url: `${API}/subscription/cancel`, headers: user.headers });
      expect(cancel.statusCode).toBe(404);
      expect((await getJson<Transactions>(ctx, user, '/transactions')).count).toBe(0);
      expect((await ctx.app.inject({ method: 'GET', url: `${API}/subscription` })).statusCode).toBe(401);
    });

    it('charges once when the same subscribe arrives several times at once (double click, two tabs)', async () => {
      const plan = await createPlan(ctx, admin, { name: 'Double click', price: '9.99' });
      const user = await createUser(ctx);
      const card = await savedCard(ctx, user, TEST_CARD.success);

      // These truly overlap on the PostgreSQL server (CI's second run), which is where a missing
      // lease shows; PGlite's single connection serialises them more.
      const responses = await Promise.all(Array.from({ length: 5 }, () => subscribe(ctx, user, plan.id, card.id)));
      const statuses = responses.map((response) => response.statusCode).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409]);
      for (const refused of responses.filter((response) => response.statusCode === 409)) {
        expect([
          'A payment for your account is already in progress. Please wait a moment and try again.',
          'You are already subscribed to this plan',
        ]).toContain(detailOf(refused));
      }
      const history = await getJson<Transactions>(ctx, user, '/transactions');
      expect(history.data.map((transaction) => [transaction.status, transaction.amount])).toEqual([
        ['succeeded', '9.99'],
      ]);

      // The lease is released: a later change of plan goes through.
      const other = await createPlan(ctx, admin, { name: 'After the rush', price: '4.99' });
      expect((await subscribe(ctx, user, other.id, card.id)).statusCode).toBe(200);
    });

    it('pages the billing history newest first with skip and limit', async () => {
      const user = await createUser(ctx);
      const card = await savedCard(ctx, user, TEST_CARD.success);
      const prices = ['1.00', '2.00', '3.00'];
      for (const price of prices) {
        const plan = await createPlan(ctx, admin, { name: `Paging ${price}`, price });
        ctx.clock.advance(1000);
        expect((await subscribe(ctx, user, plan.id, card.id)).statusCode).toBe(200);
      }
      const firstPage = await getJson<Transactions>(ctx, user, '/transactions?skip=0&limit=2');
      expect(firstPage.count).toBe(3);
      expect(firstPage.data.map((row) => row.amount)).toEqual(['3.00', '2.00']);
      const secondPage = await getJson<Transactions>(ctx, user, '/transactions?skip=2&limit=2');
      expect(secondPage.data.map((row) => row.amount)).toEqual(['1.00']);
      const bad = await ctx.app.inject({ method: 'GET', url: `${API}/transactions?limit=0`, headers: user.headers });
      expect(bad.statusCode).toBe(422);
    });
  });

  describe('payment intents confirmed by the client, settled by the sandbox through the event handler', () => {
    it('records a pending transaction, then a decline, then success starts the plan', async () => {
      const plan = await createPlan(ctx, admin, { name: 'Intent plan', price: '12.34' });
      const user = await createUser(ctx);
      const created = await createPaymentIntent(ctx, user, plan.id);
      expect(created.statusCode, created.body).toBe(201);
      const intent = created.json<PaymentIntent>();
      expect(intent).toMatchObject({ amount: '12.34', currency: 'usd', status: 'requires_payment_method' });
      expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`));
      expect((await getJson<Transactions>(ctx, user, '/transactions')).data[0]).toMatchObject({
        id: intent.transaction_id,
        status: 'pending',
      });

      const confirm = (paymentMethodId: string) =>
        ctx.app.inject({
          method: 'POST',
          url: `${API}/sandbox/payment-intents/${intent.id}/confirm`,
          headers: user.headers,
          payload: { payment_method_id: paymentMethodId },
        });
      const declined = await confirm(await tokenizedCard(ctx, user, TEST_CARD.insufficientFunds));
      expect(declined.json()).toMatchObject({
        status: 'requires_payment_method',
        error_message: 'Your card has insufficient funds.',
      });
      expect((await getJson<Transactions>(ctx, user, '/transactions')).data[0]).toMatchObject({
        status: 'failed',
        error_message: 'Your card has insufficient funds.',
      });
      expect(await getJson<Subscription | null>(ctx, user, '/subscription')).toBeNull();

      ctx.clock.advance(2000);
      const paid = await confirm(await tokenizedCard(ctx, user, TEST_CARD.success));
      expect(paid.json()).toMatchObject({ status: 'succeeded', error_message: null });
      expect((await getJson<Transactions>(ctx, user, '/transactions')).data).toEqual([
        expect.objectContaining({ id: intent.transaction_id, status: 'succeeded', error_message: null }),
      ]);
      expect(await getJson<Subscription>(ctx, user, '/subscription')).toMatchObject({
        status: 'active',
        plan: { id: plan.id },
      });

      // Confirming a settled intent again changes nothing.
      expect((await confirm(await tokenizedCard(ctx, user, TEST_CARD.success))).json()).toMatchObject({
        status: 'succeeded',
      });
      const stranger = await createUser(ctx);
      const foreign = await ctx.app.inject({
        method: 'POST',
        url: `${API}/sandbox/payment-intents/${intent.id}/confirm`,
        headers: stranger.headers,
        payload: { payment_method_id: 'pm_x' },
      });
      expect(foreign.statusCode).toBe(404);
    });
  });

  describe('account deletion', () => {
    it('ends the subscription and detaches the cards at the provider before the user goes', async () => {
      const plan = await createPlan(ctx, admin, { name: 'Leaving' });
      const user = await createUser(ctx);
      const card = await savedCard(ctx, user, TEST_CARD.success);
      expect((await subscribe(ctx, user, plan.id, card.id)).statusCode).toBe(200);

      const deleted = await ctx.app.inject({ method: 'DELETE', url: '/api/v1/users/me', headers: user.headers });
      expect(deleted.statusCode).toBe(204);
      const attached = await queryRows<{ customer_id: string | null }>(
        ctx,
        sql`select customer_id from sandbox_payment_methods where id = ${card.provider_payment_method_id}`,
      );
      expect(attached).toEqual([{ customer_id: null }]);
      const left = await queryRows<{ total: number }>(
        ctx,
        sql`select count(*)::int as total from subscriptions where user_id = ${user.id}`,
      );
      expect(left[0]!.total).toBe(0);
      // The plan has no live subscriber any more, so it can go.
      const removePlan = await ctx.app.inject({
        method: 'DELETE',
        url: `${API}/plans/${plan.id}`,
        headers: admin.headers,
      });
      expect(removePlan.statusCode).toBe(204);
    });

    it('does the same when an admin deletes the user', async () => {
      const user = await createUser(ctx);
      const card = await savedCard(ctx, user, TEST_CARD.success);
      const deleted = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/v1/users/${user.id}`,
        headers: admin.headers,
      });
      expect(deleted.statusCode).toBe(204);
      const attached = await queryRows<{ customer_id: string | null }>(
        ctx,
        sql`select customer_id from sandbox_payment_methods where id = ${card.provider_payment_method_id}`,
      );
      expect(attached).toEqual([{ customer_id: null }]);
      const missing = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/v1/users/${user.id}`,
        headers: admin.headers,
      });
      expect(missing.statusCode).toBe(404);
    });
  });
});
