import type { Plan, PaymentMethod, SandboxPaymentMethod } from '@dataplatform/contract';
import type { SQL } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestContext, TestUser } from './harness.js';

/** Billing test helpers: every step goes through the HTTP API, as the web app would. */
export const TEST_CARD = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  chargeFails: '4000000000000341',
  expired: '4000000000000069',
  incorrectCvc: '4000000000000127',
} as const;

export const API = '/api/v1/subscriptions';

export async function createPlan(
  ctx: TestContext,
  admin: TestUser,
  overrides: Partial<{ name: string; price: string | number; billing_period: string; is_active: boolean }> = {},
): Promise<Plan> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `${API}/plans`,
    headers: admin.headers,
    payload: {
      name: overrides.name ?? 'Pro',
      description: 'Everything a team needs',
      price: overrides.price ?? '19.99',
      billing_period: overrides.billing_period ?? 'monthly',
      features: ['Unlimited extracts', '', '  Priority support  '],
      is_active: overrides.is_active ?? true,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Plan>();
}

/** The sandbox's stand-in for the browser SDK: a card number in, a `pm_…` id out. */
export async function tokenizeCard(ctx: TestContext, user: TestUser, number: string, cvc = '123') {
  return ctx.app.inject({
    method: 'POST',
    url: `${API}/sandbox/payment-methods`,
    headers: user.headers,
    payload: { number, exp_month: 12, exp_year: ctx.clock.now().getUTCFullYear() + 3, cvc },
  });
}

export async function tokenizedCard(ctx: TestContext, user: TestUser, number: string): Promise<string> {
  const response = await tokenizeCard(ctx, user, number);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<SandboxPaymentMethod>().id;
}

export async function attachCard(ctx: TestContext, user: TestUser, providerPaymentMethodId: string, isDefault = false) {
  return ctx.app.inject({
    method: 'POST',
    url: `${API}/payment-methods`,
    headers: user.headers,
    payload: { provider_payment_method_id: providerPaymentMethodId, is_default: isDefault },
  });
}

/** Tokenizes and saves a card that is expected to be accepted. */
export async function savedCard(ctx: TestContext, user: TestUser, number: string, isDefault = false) {
  const response = await attachCard(ctx, user, await tokenizedCard(ctx, user, number), isDefault);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<PaymentMethod>();
}

export async function subscribe(ctx: TestContext, user: TestUser, planId: string, paymentMethodId: string) {
  return ctx.app.inject({
    method: 'POST',
    url: `${API}/subscribe/${planId}`,
    headers: user.headers,
    payload: { payment_method_id: paymentMethodId, plan_id: planId },
  });
}

/** `POST /subscriptions/payment-intent` for a plan: what the card step of the browser confirms. */
export function createPaymentIntent(ctx: TestContext, user: TestUser, planId: string) {
  return ctx.app.inject({
    method: 'POST',
    url: `${API}/payment-intent`,
    headers: user.headers,
    payload: { plan_id: planId },
  });
}

/** `POST /subscriptions/sandbox/advance` as `caller`: moves a user's sandbox clock on by `seconds`. */
export function advanceSandboxClock(ctx: TestContext, caller: TestUser, userId: string, seconds: number | string) {
  return ctx.app.inject({
    method: 'POST',
    url: `${API}/sandbox/advance`,
    headers: caller.headers,
    payload: { user_id: userId, seconds },
  });
}

export async function getJson<T>(ctx: TestContext, user: TestUser, path: string): Promise<T> {
  const response = await ctx.app.inject({ method: 'GET', url: `${API}${path}`, headers: user.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<T>();
}

/** Raw SQL for assertions on what is stored; both drivers answer `{ rows }`. */
export async function queryRows<T>(ctx: TestContext, query: SQL): Promise<T[]> {
  const result = (await ctx.database.db.execute(query)) as { rows: T[] };
  return result.rows;
}
