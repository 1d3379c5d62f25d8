import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { apiLogin, expect, type TestAccount } from './fixtures.js';

/** Helpers of the settings specs: records made through the API as an admin would make them. */

export async function adminHeaders(request: APIRequestContext): Promise<{ authorization: string }> {
  const token = await apiLogin(request, process.env.E2E_SUPERUSER_EMAIL!, process.env.E2E_SUPERUSER_PASSWORD!);
  return { authorization: `Bearer ${token}` };
}

export interface TestPlan {
  id: string;
  name: string;
  price: string;
}

/** An active plan with a unique name (plans are shared by every spec running at once). */
export async function createPlan(
  request: APIRequestContext,
  options: { price: string; period?: 'monthly' | 'annual'; features?: string[] },
): Promise<TestPlan> {
  const name = `Plan ${randomUUID().slice(0, 8)}`;
  const response = await request.post('/api/v1/subscriptions/plans', {
    headers: await adminHeaders(request),
    data: {
      name,
      description: `The ${name} plan for end-to-end tests`,
      price: options.price,
      billing_period: options.period ?? 'monthly',
      features: options.features ?? ['Dashboards', 'Email support'],
      is_active: true,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { id } = (await response.json()) as { id: string };
  return { id, name, price: options.price };
}

/** A role `download_<file>` given to the account, and the file itself in the server's FILES_DIR. */
export async function grantDownload(
  request: APIRequestContext,
  account: TestAccount,
  content: string,
): Promise<{ file: string; storedName: string }> {
  const file = `report_${randomUUID().slice(0, 6)}`;
  const storedName = `${file}.csv`;
  writeFileSync(path.join(process.env.E2E_FILES_DIR!, storedName), content);
  const headers = await adminHeaders(request);
  const role = await request.post('/api/v1/authorization/roles', { headers, data: { name: `download_${file}` } });
  expect(role.status(), await role.text()).toBe(201);
  const { id } = (await role.json()) as { id: string };
  const assigned = await request.put(`/api/v1/authorization/user/${account.id}/roles`, { headers, data: [id] });
  expect(assigned.status(), await assigned.text()).toBe(200);
  return { file, storedName };
}

/**
 * Saves a sandbox test card for `account` and subscribes it to `plan`, through the API as the card
 * dialog and the Subscribe button would: the account then has a card, a current plan and a billing row.
 */
export async function subscribeThroughApi(request: APIRequestContext, account: TestAccount, plan: TestPlan) {
  const token = await apiLogin(request, account.email, account.password);
  const headers = { authorization: `Bearer ${token}` };
  const card = await request.post('/api/v1/subscriptions/sandbox/payment-methods', {
    headers,
    data: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' },
  });
  expect(card.status(), await card.text()).toBe(201);
  const { id } = (await card.json()) as { id: string };
  const saved = await request.post('/api/v1/subscriptions/payment-methods', {
    headers,
    data: { provider_payment_method_id: id, is_default: true },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  const subscribed = await request.post(`/api/v1/subscriptions/subscribe/${plan.id}`, {
    headers,
    data: { payment_method_id: id },
  });
  expect(subscribed.ok(), await subscribed.text()).toBe(true);
}
