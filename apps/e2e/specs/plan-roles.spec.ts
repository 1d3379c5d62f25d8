import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { adminHeaders, createPlan } from '../support/settings.js';

/** PLAN-ROLES-2: a plan granting a `download_…` role; the Download tab appears as soon as one subscribes. */

const tabNames = (page: Page) => page.getByRole('tab').allTextContents();

test('subscribing to a plan that grants a download role shows the Download tab at once; its file downloads', async ({
  page,
  createAccount,
  signIn,
}) => {
  const request = page.request;
  const file = `plan_report_${randomUUID().slice(0, 6)}`;
  const content = 'month,total\nnov,42\n';
  writeFileSync(path.join(process.env.E2E_FILES_DIR!, `${file}.csv`), content);
  const headers = await adminHeaders(request);
  const role = await request.post('/api/v1/authorization/roles', { headers, data: { name: `download_${file}` } });
  expect(role.status(), await role.text()).toBe(201);
  const { id: roleId } = (await role.json()) as { id: string };
  const plan = await createPlan(request, { price: '12.00' });
  const granted = await request.patch(`/api/v1/subscriptions/plans/${plan.id}`, {
    headers,
    data: { role_ids: [roleId] },
  });
  expect(granted.status(), await granted.text()).toBe(200);

  await signIn(page, await createAccount());
  await page.goto('/settings/payment-methods');
  await page.getByRole('button', { name: 'Add Payment Method' }).click();
  const cardDialog = page.getByRole('dialog', { name: 'Add Payment Method' });
  await cardDialog.getByLabel('Card number').fill('4242 4242 4242 4242');
  await cardDialog.getByLabel('Expiry (MM/YY)').fill('12/34');
  await cardDialog.getByLabel('CVC').fill('123');
  await cardDialog.getByRole('button', { name: 'Add Card' }).click();
  await expect(page.getByText('Payment method added successfully')).toBeVisible();

  await page.getByRole('tab', { name: 'Subscription Plans' }).click();
  const card = page.getByRole('listitem', { name: plan.name });
  await expect(card.getByRole('list', { name: `${plan.name} roles` })).toContainText(`download_${file}`);
  expect(await tabNames(page)).not.toContain('Download');

  await card.getByRole('button', { name: 'Subscribe' }).click();
  const subscribe = page.getByRole('dialog', { name: `Subscribe to ${plan.name}` });
  await subscribe.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByText(`You are now subscribed to ${plan.name}`)).toBeVisible();
  // No reload: the tab follows the roles the subscription just granted.
  await expect.poll(() => tabNames(page)).toContain('Download');

  await page.getByRole('tab', { name: 'Download' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: file.replaceAll('_', ' ') }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${file}.csv`);
  expect(readFileSync(await download.path(), 'utf8')).toBe(content);
});
