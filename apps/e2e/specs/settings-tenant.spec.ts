import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { adminHeaders } from '../support/settings.js';

/** The top bar's tenant switcher, through the real API: membership decides what can be selected. */

async function createTenantWithMembers(request: APIRequestContext, memberIds: string[]) {
  const headers = await adminHeaders(request);
  const name = `Tenant ${randomUUID().slice(0, 8)}`;
  const created = await request.post('/api/v1/tenants/', { headers, data: { name, status: 'active' } });
  expect(created.status(), await created.text()).toBe(201);
  const tenant = (await created.json()) as { id: string; name: string };
  const members = await request.put(`/api/v1/tenants/${tenant.id}/members`, { headers, data: memberIds });
  expect(members.status(), await members.text()).toBe(200);
  return tenant;
}

test('a member switches tenant: stored, sent as X-Tenant-ID, kept on reload, cleared by No tenant and logout', async ({
  page,
  request,
  user: account,
}) => {
  const first = await createTenantWithMembers(request, [account.id]);
  const second = await createTenantWithMembers(request, [account.id]);
  await page.goto('/settings/profile');

  await page.getByRole('button', { name: 'Tenant: No tenant' }).click();
  await expect(page.getByRole('menuitemradio', { name: first.name })).toBeVisible();
  await expect(page.getByRole('menuitemradio', { name: second.name })).toBeVisible();
  // The data on screen is fetched again, for the chosen tenant.
  const refetched = page.waitForRequest(
    (sent) => sent.url().includes('/api/v1/users/me') && sent.headers()['x-tenant-id'] === second.id,
  );
  await page.getByRole('menuitemradio', { name: second.name }).click();
  await refetched;
  await expect(page.getByRole('button', { name: `Tenant: ${second.name}` })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('selectedTenantId'))).toBe(second.id);

  await page.reload();
  await expect(page.getByRole('button', { name: `Tenant: ${second.name}` })).toBeVisible();

  await page.getByRole('button', { name: `Tenant: ${second.name}` }).click();
  await page.getByRole('menuitemradio', { name: 'No tenant' }).click();
  await expect(page.getByRole('button', { name: 'Tenant: No tenant' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('selectedTenantId'))).toBeNull();

  await page.getByRole('button', { name: 'Tenant: No tenant' }).click();
  await page.getByRole('menuitemradio', { name: first.name }).click();
  await expect(page.getByRole('button', { name: `Tenant: ${first.name}` })).toBeVisible();
  await page.getByRole('button', { name: 'account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('selectedTenantId'))).toBeNull();
  await expect(page.getByRole('button', { name: /^Tenant:/ })).toHaveCount(0);
});

test('a user who belongs to no tenant sees no switcher; at 390 px a member sees it as an icon', async ({
  page,
  request,
  createAccount,
  signIn,
  user: _loner,
}) => {
  await page.goto('/settings/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'My profile' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Tenant:/ })).toHaveCount(0);

  const member = await createAccount();
  const tenant = await createTenantWithMembers(request, [member.id]);
  await signIn(page, member);
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/settings/profile');
  const switcher = page.getByRole('button', { name: 'Tenant: No tenant' });
  await expect(switcher).toBeVisible();
  await expect(switcher.getByText('No tenant')).toBeHidden();
  await switcher.click();
  await page.getByRole('menuitemradio', { name: tenant.name }).click();
  await expect(page.getByRole('button', { name: `Tenant: ${tenant.name}` })).toBeVisible();
  // The top bar still fits: nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
