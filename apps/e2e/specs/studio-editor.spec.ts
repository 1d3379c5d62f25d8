import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { type AdminApi, expect, SHOTS_DIR, test, toast, uniqueTag, type Named } from '../support/admin.js';
import {
  apiLogin,
  expectNoSeriousA11yViolations,
  LONG_WALK_TIMEOUT_MS,
  type TestAccount,
} from '../support/fixtures.js';

/** STUDIO-EDIT: a report written, previewed, saved, contested, compared and restored in the browser. */

const definition = (title: string, note: string) => `title: ${title}
description: Written by the editor's spec.
source: demo
params:
  code: { label: Billing code, type: select, options: ["99213", "70450"], default: "99213" }
blocks:
  - id: median
    title: Median negotiated rate
    kpi: { sql: "SELECT median(negotiated_rate) AS v FROM rates WHERE billing_code = :code", value: v, format: currency }
  - id: by_payer
    title: Median rate by payer
    chart:
      sql: "SELECT payer, median(negotiated_rate) AS median_rate FROM rates WHERE billing_code = :code GROUP BY payer"
      spec: { mark: bar, encoding: { x: { field: payer, type: nominal }, y: { field: median_rate, type: quantitative } } }
  - id: detail
    title: Rates
    table: { sql: "SELECT payer, plan_name, negotiated_rate FROM rates WHERE billing_code = :code", page_size: 5 }
  - id: note
    text: ${note}
`;

/** An author: a user holding reports:write through a role, member of a fresh tenant. */
async function arrangeAuthor(
  api: AdminApi,
  request: APIRequestContext,
  account: TestAccount,
): Promise<{ tenant: Named; token: string }> {
  await api.grant(account.id, ['reports:write']);
  const tenant = await api.send<Named>('POST', '/tenants/', { name: uniqueTag('Studio '), status: 'active' });
  await api.send('PUT', `/tenants/${tenant.id}/members`, [account.id]);
  return { tenant, token: await apiLogin(request, account.email, account.password) };
}

/** Replaces the editor's whole text, as a paste would. */
async function replaceText(page: Page, text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'Report definition (YAML)' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

async function selectTenant(page: Page, tenantId: string): Promise<void> {
  await page.evaluate((id) => localStorage.setItem('selectedTenantId', id), tenantId);
}

test('an author writes a report with a live preview, saves it, meets a conflict, compares, restores and deletes', async ({
  page,
  request,
  api,
  user: author,
}) => {
  // The first query of a fresh server generates the demo data set: on a loaded machine, minutes.
  test.setTimeout(LONG_WALK_TIMEOUT_MS + 180_000);
  mkdirSync(SHOTS_DIR, { recursive: true });
  const { tenant, token } = await arrangeAuthor(api, request, author);
  await selectTenant(page, tenant.id);
  const title = `Rates ${uniqueTag('r')}`;

  // New report: the starter text previews at once.
  await page.goto('/studio/reports');
  await page.getByRole('link', { name: 'New report' }).click();
  await expect(page).toHaveURL(/\/studio\/reports\/new$/);
  await expect(page.getByRole('heading', { level: 1, name: 'New report' })).toBeVisible();
  await replaceText(page, definition(title, 'First words.'));
  const median = page.getByRole('region', { name: 'Median negotiated rate' });
  await expect(median.getByText(/^\$[\d,]+\.\d\d$/)).toBeVisible({ timeout: 180_000 });
  await expect(page.getByRole('region', { name: 'Rates' }).getByText(/^1–5 of [\d,]+$/)).toBeVisible({
    timeout: 60_000,
  });

  // A problem is marked at its line as one types, and listed; fixing it clears it.
  const editor = page.getByRole('textbox', { name: 'Report definition (YAML)' });
  await editor.press('ControlOrMeta+End');
  await page.keyboard.insertText('bogus: 1\n');
  await expect(page.getByRole('button', { name: /^Line 20, column 1: .*Unrecognized key: "bogus"/ })).toBeVisible();
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(1);
  await replaceText(page, definition(title, 'First words.'));
  await expect(page.getByText(/^No problems found/)).toBeVisible();

  // The source browser inserts a column name at the cursor.
  await page.getByRole('tab', { name: 'Tables' }).click();
  await editor.press('ControlOrMeta+End');
  await page.keyboard.insertText('# ');
  await page
    .getByRole('button', { name: /^Insert column billing_code \(/ })
    .first()
    .click();
  await expect(editor).toContainText('# billing_code');
  await page.getByRole('tab', { name: 'Preview' }).click();

  await page.getByRole('button', { name: 'Create report' }).click();
  await expect(toast(page, `Report “${title}” created.`)).toBeVisible();
  await expect(page).toHaveURL(/\/studio\/reports\/rates-[a-z0-9-]+\/edit$/);
  await expect(page.getByRole('heading', { level: 1, name: `Edit: ${title}` })).toBeVisible();
  const reportUrl = new URL(page.url()).pathname.replace(/\/edit$/, '');
  const slug = reportUrl.split('/').pop()!;

  // A second version.
  await replaceText(page, definition(title, 'Second words.'));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(toast(page, 'Saved as version 2.')).toBeVisible();

  // Someone else saves version 3 (through the API) while the author edits version 2.
  const theirs = await request.put(`/api/v1/studio/reports/${slug}`, {
    headers: { authorization: `Bearer ${token}`, 'x-tenant-id': tenant.id },
    data: { definition: definition(title, 'Their words.'), version: 2 },
  });
  expect(theirs.status(), await theirs.text()).toBe(200);
  await replaceText(page, definition(title, 'My words.'));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const conflict = page.getByRole('alert').filter({ hasText: 'Someone else saved a newer version' });
  await expect(conflict).toContainText(`version 3 was saved by ${author.email}`);
  await page.screenshot({ path: path.join(SHOTS_DIR, 'studio-editor-conflict-1280-light.png') });
  await expect(editor).toContainText('text: My words.');

  await conflict.getByRole('button', { name: 'Compare with the latest' }).click();
  const compare = page.getByRole('dialog', { name: 'Compare versions' });
  const changes = compare.getByRole('region', { name: 'Changes from version 3 to your text (not saved)' });
  await expect(changes.locator('del')).toContainText('text: Their words.');
  await expect(changes.locator('ins')).toContainText('text: My words.');
  await expectNoSeriousA11yViolations(page, 'conflict diff, light');
  await page.screenshot({ path: path.join(SHOTS_DIR, 'studio-editor-diff-1280-light.png') });
  await compare.getByRole('button', { name: 'Close' }).click();

  await conflict.getByRole('button', { name: 'Save mine as the newest' }).click();
  await expect(toast(page, 'Saved as version 4.')).toBeVisible();
  await expect(conflict).toBeHidden();

  // History: who saved each version and when; the changes of one; restore another.
  await page.getByRole('tab', { name: 'History' }).click();
  const versions = page.getByRole('table', { name: 'Versions' });
  await expect(versions.getByRole('row')).toHaveCount(5);
  await expect(versions.getByRole('row').nth(1)).toContainText('4 (current)');
  await expect(versions.getByRole('row').nth(1)).toContainText(author.email);
  await page.getByRole('button', { name: 'Compare version 2 with version 1' }).click();
  const diff = page.getByRole('dialog', { name: 'Compare versions' });
  await expect(diff.getByRole('region', { name: 'Changes from version 1 to version 2' }).locator('ins')).toContainText(
    'Second words.',
  );
  await diff.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'Restore version 1' }).click();
  const confirm = page.getByRole('dialog', { name: 'Restore version 1?' });
  await confirm.getByRole('button', { name: 'Restore' }).click();
  await expect(toast(page, 'Version 1 restored as version 5.')).toBeVisible();
  await expect(editor).toContainText('text: First words.');
  await expect(versions.getByRole('row').nth(1)).toContainText('restores 1');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  // The history is what is checked here: the toast above it, half-way through its exit, is not.
  await expect(toast(page, 'Version 1 restored as version 5.')).toBeHidden({ timeout: 20_000 });
  await expectNoSeriousA11yViolations(page, 'history at 390 px, dark');
  // The history fits the phone's width: who and when stack under the version, nothing scrolls the page sideways.
  await expect(versions.getByRole('columnheader')).toHaveText(['Version', 'Actions']);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(SHOTS_DIR, 'studio-editor-history-390-dark.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });

  // Both themes, a wide and a narrow screen, with the preview drawn.
  await page.getByRole('tab', { name: 'Preview' }).click();
  await expect(median.getByText(/^\$[\d,]+\.\d\d$/)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('region', { name: 'Median rate by payer' }).getByRole('img')).toBeVisible({
    timeout: 60_000,
  });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousA11yViolations(page, `editor, ${scheme}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: path.join(SHOTS_DIR, 'studio-editor-1280-dark.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'light' });
  await expectNoSeriousA11yViolations(page, 'editor at 390 px, light');
  await page.screenshot({ path: path.join(SHOTS_DIR, 'studio-editor-390-light.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Leaving with unsaved changes asks first; Stay keeps them, and once saved the way out is open.
  await replaceText(page, definition(title, 'Words not saved yet.'));
  await page.getByRole('link', { name: 'View report' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(leave).toHaveCount(0);
  await expect(page).toHaveURL(/\/edit$/);
  await expect(editor).toContainText('text: Words not saved yet.');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(toast(page, 'Saved as version 6.')).toBeVisible();

  // The viewer offers Edit to an author; Delete asks first and goes back to the list.
  await page.getByRole('link', { name: 'View report' }).click();
  await expect(page).toHaveURL(new RegExp(`${reportUrl}$`));
  await expect(page.getByRole('link', { name: 'Edit' })).toBeVisible();
  await page.getByRole('link', { name: 'Edit' }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: `Delete “${title}”?` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(toast(page, `Report “${title}” deleted.`)).toBeVisible();
  await expect(page).toHaveURL(/\/studio\/reports$/);
  await expect(page.getByRole('link', { name: title })).toHaveCount(0);
});

test('a reader without reports:write sees no New report or Edit, and the editor says why', async ({
  page,
  user: _user,
}) => {
  await page.goto('/studio/reports');
  await expect(page.getByRole('link', { name: 'Negotiated rates by payer' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'New report' })).toHaveCount(0);
  await page.goto('/studio/reports/new');
  await expect(page.getByText('Writing reports needs the reports:write permission')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'editor refused');
});
