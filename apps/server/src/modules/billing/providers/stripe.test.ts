import type {
  BillingConfig,
  PaymentIntent,
  PaymentMethod,
  Plan,
  Subscription,
  Transactions,
} from '@dataplatform/contract';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  advanceSandboxClock,
  API,
  createPaymentIntent,
  createPlan,
  getJson,
  queryRows,
} from '../../../../test/billing.js';
import { createTestContext, createUser, detailOf, type TestContext, type TestUser } from '../../../../test/harness.js';
import { startStripeStandIn, type StripeStandIn } from '../../../../test/stripe-stand-in.js';

const WEBHOOK_SECRET = 'whsec_test_secret_for_the_stand_in';

/** A seeded shuffle, so a failing order can be replayed. */
function shuffled<T>(items: T[], seed: number): T[] {
  const result = [...items];
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  for (let index = result.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [result[index], result[other]] = [result[other]!, result[index]!];
  }
  return result;
}

describe('billing on Stripe (the real SDK against a local stand-in)', () => {
  let ctx: TestContext;
  let standIn: StripeStandIn;
  let admin: TestUser;
  let monthly: Plan;
  let annual: Plan;
  const stripe = new Stripe('sk_test_only_for_signing');

  beforeAll(async () => {
    standIn = await startStripeStandIn();
    ctx = await createTestContext({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_stand_in',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_stand_in',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: standIn.url,
        RENEWAL_POLL_INTERVAL_SECONDS: '0',
      },
    });
    admin = await createUser(ctx, { isSuperuser: true });
    monthly = await createPlan(ctx, admin, { name: 'Stripe monthly', price: '19.99' });
    annual = await createPlan(ctx, admin, { name: 'Stripe annual', price: '0.29', billing_period: 'annual' });
  });
  afterAll(async () => {
    await ctx.close();
    await standIn.close();
  });

  async function addCard(user: TestUser, id: string, isDefault = false) {
    return ctx.app.inject({
      method: 'POST',
      url: `${API}/payment-methods`,
      headers: user.headers,
      payload: { provider_payment_method_id: id, is_default: isDefault },
    });
  }

  function sign(payload: string, secret = WEBHOOK_SECRET, timestamp = Math.floor(ctx.clock.now().getTime() / 1000)) {
    return stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
  }

  function deliver(event: object, signature?: string) {
    const payload = JSON.stringify(event);
    return ctx.app.inject({
      method: 'POST',
      url: `${API}/webhook`,
      headers: { 'content-type': 'application/json', 'stripe-signature': signature ?? sign(payload) },
      payload,
    });
  }

  it('tells the web app Stripe is live, with its publishable key', async () => {
    const user = await createUser(ctx);
    expect(await getJson<BillingConfig>(ctx, user, '/config')).toEqual({
      provider: 'stripe',
      publishable_key: 'pk_test_stand_in',
      currency: 'usd',
      sandbox_clock: false,
    });
    const sandboxOnly = await ctx.app.inject({
      method: 'POST',
      url: `${API}/sandbox/payment-methods`,
      headers: user.headers,
      payload: { number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123' },
    });
    expect(sandboxOnly.statusCode).toBe(404);
    // SANDBOX-CLOCK-2: no test clock where real money moves.
    const admin = await createUser(ctx, { isSuperuser: true });
    const clock = await advanceSandboxClock(ctx, admin, user.id, 60);
    expect(clock.statusCode).toBe(404);
  });

  it("lets Stripe.js load and talk to Stripe: the page's CSP allows Stripe's origins", async () => {
    const csp = String((await ctx.app.inject('/healthz')).headers['content-security-policy']);
    expect(csp).toMatch(/script-src [^;]*https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/js\.stripe\.com[^;]*https:\/\/hooks\.stripe\.com/);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/api\.stripe\.com/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
  });

  it('saves a card through a customer, charges the first period in minor units, records the payment', async () => {
    const user = await createUser(ctx);
    const added = await addCard(user, `pm_card_visa_${user.id.slice(0, 8)}`);
    expect(added.statusCode, added.body).toBe(201);
    const card = added.json<PaymentMethod>();
    expect(card).toMatchObject({
      card_type: 'visa',
      last_four: '4242',
      expiry_month: 12,
      expiry_year: 2034,
      is_default: true,
    });

    const customers = standIn
      .find('POST', '/v1/customers')
      .filter((entry) => entry.params['metadata[user_id]'] === user.id);
    expect(customers).toHaveLength(1);
    expect(customers[0]!.idempotencyKey).toBe(`customer-${user.id}`);
    const attach = standIn.find('POST', `/v1/payment_methods/${card.provider_payment_method_id}/attach`);
    expect(attach).toHaveLength(1);
    const customerId = attach[0]!.params.customer!;
    const defaults = standIn.find('POST', `/v1/customers/${customerId}`);
    expect(defaults.at(-1)!.params['invoice_settings[default_payment_method]']).toBe(card.provider_payment_method_id);

    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/subscribe/${monthly.id}`,
      headers: user.headers,
      payload: { payment_method_id: card.id, provider_metadata: { campaign: 'spring', user_id: 'spoofed' } },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<Subscription>()).toMatchObject({ status: 'active', plan: { id: monthly.id } });

    const charge = standIn.find('POST', '/v1/payment_intents').find((entry) => entry.params.customer === customerId)!;
    expect(charge.params).toMatchObject({
      amount: '1999',
      currency: 'usd',
      confirm: 'true',
      off_session: 'false',
      payment_method: card.provider_payment_method_id,
      'metadata[campaign]': 'spring',
      'metadata[user_id]': user.id,
      'metadata[purpose]': 'subscribe',
    });
    expect(charge.idempotencyKey).toMatch(/^subscribe-/);
    const history = await getJson<Transactions>(ctx, user, '/transactions');
    expect(history.data).toEqual([expect.objectContaining({ amount: '19.99', status: 'succeeded' })]);
  });

  it("answers 402 with Stripe's reason when a card is refused on attach or on charge", async () => {
    const user = await createUser(ctx);
    const refused = await addCard(user, `pm_card_chargeDeclined_${user.id.slice(0, 8)}`);
    expect(refused.statusCode).toBe(402);
    expect(detailOf(refused)).toBe('Your card was declined.');

    const added = await addCard(user, `pm_card_chargeCustomerFail_${user.id.slice(0, 8)}`);
    expect(added.statusCode).toBe(201);
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/subscribe/${annual.id}`,
      headers: user.headers,
      payload: { payment_method_id: added.json<PaymentMethod>().id },
    });
    expect(response.statusCode).toBe(402);
    expect(detailOf(response)).toBe('Your card was declined.');
    expect(await getJson<Subscription | null>(ctx, user, '/subscription')).toBeNull();
    const [failed] = await queryRows<{ status: string; error_message: string; provider_payment_id: string }>(
      ctx,
      sql`select status, error_message, provider_payment_id from transactions where user_id = ${user.id}`,
    );
    expect(failed).toMatchObject({ status: 'failed', error_message: 'Your card was declined.' });
    expect(failed!.provider_payment_id).toMatch(/^pi_/);

    const unknown = await addCard(user, 'pm_unknown_card');
    expect(unknown.statusCode).toBe(400);
  });

  it('creates the Stripe price from the exact amount: 19.99 is 1999 and 0.29 is 29 (not 28.999…)', async () => {
    const first = await ctx.app.inject({
      method: 'POST',
      url: `${API}/plans/${monthly.id}/update-stripe-price`,
      headers: admin.headers,
    });
    expect(first.statusCode).toBe(200);
    const second = await ctx.app.inject({
      method: 'POST',
      url: `${API}/plans/${annual.id}/update-stripe-price`,
      headers: admin.headers,
    });
    const prices = standIn.find('POST', '/v1/prices');
    expect(prices.map((entry) => [entry.params.unit_amount, entry.params['recurring[interval]']])).toEqual([
      ['1999', 'month'],
      ['29', 'year'],
    ]);
    expect(second.json<Plan>().provider_price_id).toMatch(/^price_/);

    // A second price for the same plan reuses its product.
    await ctx.app.inject({
      method: 'POST',
      url: `${API}/plans/${monthly.id}/update-stripe-price`,
      headers: admin.headers,
    });
    expect(standIn.find('POST', '/v1/products')).toHaveLength(2);
  });

  it('answers 502 with a clear message when Stripe is unreachable, and saves nothing', async () => {
    const user = await createUser(ctx);
    standIn.fail('/v1/customers');
    try {
      const response = await addCard(user, `pm_card_visa_outage${user.id.slice(0, 8)}`);
      expect(response.statusCode).toBe(502);
      expect(detailOf(response)).toBe('The payment provider is unavailable. Please try again later.');
    } finally {
      standIn.recover();
    }
    expect((await getJson<{ count: number }>(ctx, user, '/payment-methods')).count).toBe(0);
  });

  it('renews off-session with an idempotency key per period and attempt', async () => {
    const user = await createUser(ctx);
    const card = (await addCard(user, `pm_card_visa_renew${user.id.slice(0, 8)}`)).json<PaymentMethod>();
    const subscribed = await ctx.app.inject({
      method: 'POST',
      url: `${API}/subscribe/${monthly.id}`,
      headers: user.headers,
      payload: { payment_method_id: card.id },
    });
    const subscription = subscribed.json<Subscription>();
    const jump = new Date(subscription.current_period_end).getTime() - ctx.clock.now().getTime() + 1;
    ctx.clock.advance(jump);
    await ctx.app.services.billing.renewals.runOnce();
    const renewal = standIn
      .find('POST', '/v1/payment_intents')
      .find(
        (entry) => entry.params['metadata[purpose]'] === 'renewal' && entry.params['metadata[user_id]'] === user.id,
      )!;
    expect(renewal.params).toMatchObject({ off_session: 'true', confirm: 'true', amount: '1999' });
    expect(renewal.idempotencyKey).toBe(`renewal-${subscription.id}-${subscription.current_period_end}-0`);
    ctx.clock.advance(-jump);
  });

  describe('webhooks', () => {
    it('refuses a missing, forged, stale or tampered signature with 400 and applies nothing', async () => {
      const event = { id: 'evt_forged', type: 'payment_method.detached', created: 1, data: { object: { id: 'pm_x' } } };
      const payload = JSON.stringify(event);
      const attempts = [
        { headers: { 'content-type': 'application/json' }, payload },
        { headers: { 'content-type': 'application/json', 'stripe-signature': sign(payload, 'whsec_wrong') }, payload },
        {
          headers: {
            'content-type': 'application/json',
            'stripe-signature': sign(payload, WEBHOOK_SECRET, Math.floor(ctx.clock.now().getTime() / 1000) - 3600),
          },
          payload,
        },
        {
          headers: { 'content-type': 'application/json', 'stripe-signature': sign(payload) },
          payload: payload.replace('pm_x', 'pm_y'),
        },
        { headers: { 'content-type': 'application/json', 'stripe-signature': 'garbage' }, payload },
      ];
      for (const attempt of attempts) {
        const response = await ctx.app.inject({ method: 'POST', url: `${API}/webhook`, ...attempt });
        expect(response.statusCode).toBe(400);
        expect(detailOf(response)).toMatch(/signature/i);
      }
      const recorded = await queryRows(ctx, sql`select id from billing_events where id = 'evt_forged'`);
      expect(recorded).toHaveLength(0);

      const notAnEvent = JSON.stringify({ hello: 'world' });
      const malformed = await ctx.app.inject({
        method: 'POST',
        url: `${API}/webhook`,
        headers: { 'content-type': 'application/json', 'stripe-signature': sign(notAnEvent) },
        payload: notAnEvent,
      });
      expect(malformed.statusCode).toBe(400);
    });

    /**
     * One customer's story as Stripe tells it: two client-confirmed payments for two plans (the
     * second declined, then paid), two card updates and the default card detached.
     */
    async function story(tag: string) {
      const user = await createUser(ctx);
      const visa = (await addCard(user, `pm_card_visa_${tag}`)).json<PaymentMethod>();
      const master = (await addCard(user, `pm_card_mastercard_${tag}`, true)).json<PaymentMethod>();
      const intent = async (plan: Plan) => {
        const response = await createPaymentIntent(ctx, user, plan.id);
        expect(response.statusCode, response.body).toBe(201);
        return response.json<PaymentIntent>();
      };
      const first = await intent(annual);
      const second = await intent(monthly);
      const base = Math.floor(ctx.clock.now().getTime() / 1000);
      const paymentObject = (id: string, created: number, status: string, error?: string) => ({
        id,
        object: 'payment_intent',
        created,
        status,
        last_payment_error: error ? { message: error } : null,
      });
      const card = (id: string, expYear: number) => ({
        id,
        object: 'payment_method',
        card: { brand: 'visa', last4: '4242', exp_month: 6, exp_year: expYear },
      });
      const events = [
        ['payment_intent.processing', paymentObject(first.id, base - 100, 'processing')],
        ['payment_intent.succeeded', paymentObject(first.id, base - 100, 'succeeded')],
        ['payment_method.updated', card(visa.provider_payment_method_id, 2030)],
        [
          'payment_intent.payment_failed',
          paymentObject(second.id, base - 50, 'requires_payment_method', 'Your card has insufficient funds.'),
        ],
        ['payment_intent.succeeded', paymentObject(second.id, base - 50, 'succeeded')],
        ['payment_method.updated', card(visa.provider_payment_method_id, 2031)],
        ['payment_method.detached', { id: master.provider_payment_method_id, object: 'payment_method' }],
        ['customer.created', { id: 'cus_ignored', object: 'customer' }],
      ].map(([type, object], index) => ({
        id: `evt_${tag}_${index}`,
        object: 'event',
        type,
        created: base + index,
        data: { object },
      }));
      return { user, events, base };
    }

    /** Everything a delivery order could change, without ids that differ between stories. */
    async function snapshot(user: TestUser, base: number) {
      const subscription = await getJson<Subscription | null>(ctx, user, '/subscription');
      const transactions = await getJson<Transactions>(ctx, user, '/transactions');
      const cards = await getJson<{ data: PaymentMethod[] }>(ctx, user, '/payment-methods');
      const recorded = await queryRows<{ total: number }>(
        ctx,
        sql`select count(*)::int as total from billing_events where id like ${`evt_${user.id.slice(0, 8)}%`}`,
      );
      return {
        subscription: subscription && {
          plan: subscription.plan.name,
          status: subscription.status,
          periodStartOffset: new Date(subscription.current_period_start).getTime() / 1000 - base,
          cancel: subscription.cancel_at_period_end,
        },
        transactions: transactions.data
          .map((row) => [row.description, row.amount, row.status, row.error_message])
          .sort((left, right) => String(left[0]).localeCompare(String(right[0]))),
        cards: cards.data.map((row) => [
          row.card_type,
          row.last_four,
          row.expiry_month,
          row.expiry_year,
          row.is_default,
        ]),
        recordedEvents: recorded[0]!.total,
      };
    }

    it('the same event 10 times, and shuffled orders, leave exactly the state of one in-order delivery', async () => {
      const inOrder = await story('');
      const tagOf = (user: TestUser) => user.id.slice(0, 8);
      // Event ids carry the user so each story's events are its own.
      const retag = (user: TestUser, events: { id: string }[]) =>
        events.map((event, index) => ({ ...event, id: `evt_${tagOf(user)}_${index}` }));

      const reference = retag(inOrder.user, inOrder.events);
      for (const event of reference) expect((await deliver(event)).statusCode).toBe(200);
      const expected = await snapshot(inOrder.user, inOrder.base);
      expect(expected).toEqual({
        subscription: { plan: 'Stripe monthly', status: 'active', periodStartOffset: -50, cancel: false },
        transactions: [
          ['Stripe annual (annual)', '0.29', 'succeeded', null],
          ['Stripe monthly (monthly)', '19.99', 'succeeded', null],
        ],
        cards: [['visa', '4242', 6, 2031, true]],
        recordedEvents: 8,
      });

      const repeated = await story('repeat');
      for (const event of retag(repeated.user, repeated.events)) {
        const responses = await Promise.all(Array.from({ length: 5 }, () => deliver(event)));
        for (let again = 0; again < 5; again += 1) responses.push(await deliver(event));
        expect(responses.every((response) => response.statusCode === 200)).toBe(true);
      }
      expect(await snapshot(repeated.user, repeated.base)).toEqual(expected);

      for (const seed of [1, 7, 42, 1234, 99_999]) {
        const run = await story(`shuffle${seed}`);
        const events = retag(run.user, run.events);
        for (const event of shuffled(events, seed)) expect((await deliver(event)).statusCode).toBe(200);
        // A redelivery of everything afterwards changes nothing either.
        for (const event of shuffled(events, seed + 1)) await deliver(event);
        expect(await snapshot(run.user, run.base), `seed ${seed}`).toEqual(expected);
      }
    }, 120_000);
  });

  describe('account deletion', () => {
    it('detaches every card and deletes the customer at Stripe before the user goes', async () => {
      const user = await createUser(ctx);
      const cards = [
        (await addCard(user, `pm_card_visa_bye${user.id.slice(0, 8)}`)).json<PaymentMethod>(),
        (await addCard(user, `pm_card_mastercard_bye${user.id.slice(0, 8)}`)).json<PaymentMethod>(),
      ];
      await ctx.app.inject({
        method: 'POST',
        url: `${API}/subscribe/${monthly.id}`,
        headers: user.headers,
        payload: { payment_method_id: cards[0]!.id },
      });
      const customerId = standIn.find('POST', `/v1/payment_methods/${cards[0]!.provider_payment_method_id}/attach`)[0]!
        .params.customer!;

      // Stripe down: the account stays, so the person can try again.
      standIn.fail('/v1/payment_methods');
      try {
        const refused = await ctx.app.inject({ method: 'DELETE', url: '/api/v1/users/me', headers: user.headers });
        expect(refused.statusCode).toBe(502);
      } finally {
        standIn.recover();
      }
      expect((await queryRows(ctx, sql`select id from users where id = ${user.id}`)).length).toBe(1);

      const deleted = await ctx.app.inject({ method: 'DELETE', url: '/api/v1/users/me', headers: user.headers });
      expect(deleted.statusCode).toBe(204);
      for (const card of cards) {
        expect(
          standIn.find('POST', `/v1/payment_methods/${card.provider_payment_method_id}/detach`).length,
        ).toBeGreaterThan(0);
      }
      expect(standIn.find('DELETE', `/v1/customers/${customerId}`)).toHaveLength(1);
      expect(await queryRows(ctx, sql`select id from users where id = ${user.id}`)).toHaveLength(0);
    });
  });
});
