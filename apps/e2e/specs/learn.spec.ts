import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { type AdminApi, expect, SHOTS_DIR, test, toast, uniqueTag, type Named } from '../support/admin.js';
import { expectNoSeriousA11yViolations, type TestAccount } from '../support/fixtures.js';

/** Learn (issue 60): the first lesson walked in the browser, its sample file uploaded, its check done. */

/** The sample file the first lesson ships, as the server serves it. */
const SAMPLE = fileURLToPath(
  new URL('../../server/src/modules/learn/lessons/samples/seattle-weather.csv', import.meta.url),
);

/** A fresh tenant with `account` as its member, holding sources:write and reports:write through a role. */
async function arrangeLearner(api: AdminApi, account: TestAccount): Promise<Named> {
  const role = await api.createRole(uniqueTag('learner'));
  const permissions = await api.send<{ data: Named[] }>('GET', '/authorization/permissions?limit=1000');
  for (const name of ['sources:write', 'reports:write']) {
    const permission = permissions.data.find((candidate) => candidate.name === name);
    expect(permission, `the ${name} permission is seeded`).toBeDefined();
    await api.send('POST', '/authorization/role-permission', { role_id: role.id, permission_id: permission!.id });
  }
  await api.send('POST', '/authorization/user-role', { user_id: account.id, role_id: role.id });
  const tenant = await api.send<Named>('POST', '/tenants/', { name: uniqueTag('Learning '), status: 'active' });
  await api.send('PUT', `/tenants/${tenant.id}/members`, [account.id]);
  return tenant;
}

async function selectTenant(page: Page, tenantId: string): Promise<void> {
  await page.evaluate((id) => localStorage.setItem('selectedTenantId', id), tenantId);
}

async function axeInBothSchemes(page: Page, label: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousA11yViolations(page, `${label}, ${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a new member walks the first lesson: the check says what is missing, the upload makes it done, progress stays', async ({
  page,
  api,
  createAccount,
  signIn,
}) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS_DIR, { recursive: true });
  const learner = await createAccount();
  const tenant = await arrangeLearner(api, learner);
  await signIn(page, learner);
  await selectTenant(page, tenant.id);

  // Studio's empty report list points to the first lesson.
  await page.goto('/studio/reports');
  await page.getByRole('link', { name: 'Start with the first lesson in Learn' }).click();
  await expect(page).toHaveURL(/\/learn\/first-extract$/);

  // The list: every lesson with its progress in this tenant.
  await page.goto('/learn');
  await expect(page.getByRole('heading', { level: 1, name: 'Learn' })).toBeVisible();
  await expect(page.getByText(`Your progress in ${tenant.name}.`)).toBeVisible();
  const first = page.getByRole('link', { name: '1. Your first extract' });
  await expect(first).toBeVisible();
  await expect(page.getByRole('link', { name: /^\d+\. Sharing and scheduling$/ })).toBeVisible();
  await axeInBothSchemes(page, 'learn list');
  await page.screenshot({ path: path.join(SHOTS_DIR, 'learn-list-1280-light.png'), fullPage: true });

  // By keyboard to the lesson.
  await first.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Your first extract' })).toBeVisible();
  const upload = page.getByRole('listitem', { name: '1. Upload the sample file' });
  await expect(upload.getByText('Not done yet')).toBeVisible();

  // Checking before the step: what is missing, in this tenant.
  const check = page.getByRole('button', { name: 'Check my work' });
  await check.focus();
  await page.keyboard.press('Enter');
  await expect(upload.getByRole('alert')).toHaveText(
    `No extract with at least 1 row in ${tenant.name}: upload a file in Studio`,
  );
  await expect(page.getByRole('status').filter({ hasText: 'Checked:' })).toHaveText(
    'Checked: 0 of 2 steps done. Each step says what is missing.',
  );
  await axeInBothSchemes(page, 'learn lesson, checked');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: path.join(SHOTS_DIR, 'learn-lesson-1280-dark.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousA11yViolations(page, 'learn lesson at 390 px');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(SHOTS_DIR, 'learn-lesson-390-light.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The step's link opens the screen where it is done; the sample file is uploaded there.
  await upload.getByRole('link', { name: 'Open Sources' }).click();
  await expect(page).toHaveURL(/\/studio\/sources$/);
  await expect(page.getByRole('link', { name: 'The first lesson in Learn' })).toBeVisible();
  await page.getByLabel('CSV or Parquet file').setInputFiles(SAMPLE);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(toast(page, 'Uploaded: table seattle_weather, 1,461 rows.')).toBeVisible({ timeout: 60_000 });

  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Your first extract' })).toBeVisible();
  await page.getByRole('button', { name: 'Check my work' }).click();
  await expect(upload.getByText('Done', { exact: true })).toBeVisible();
  await expect(upload.getByRole('alert')).toHaveText(`1 extract with at least 1 row in ${tenant.name}`);

  // Progress survives signing out and in again.
  await page.getByRole('button', { name: 'account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, learner);
  await selectTenant(page, tenant.id);
  await page.goto('/learn');
  await expect(page.getByRole('progressbar', { name: 'Progress in Your first extract' })).toHaveAttribute(
    'aria-valuenow',
    '50',
  );
  await expect(page.getByText('1 of 2 steps done')).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(SHOTS_DIR, 'learn-list-390-light.png'), fullPage: true });
});
