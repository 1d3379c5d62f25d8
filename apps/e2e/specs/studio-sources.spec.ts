import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { type AdminApi, expect, SHOTS_DIR, test, toast, uniqueTag, type Named } from '../support/admin.js';
import { expectNoSeriousA11yViolations, type TestAccount } from '../support/fixtures.js';

/** STUDIO-SOURCE-7: a tenant's sources in the browser; extracts uploaded, refused and deleted. */

/** A fresh tenant with `account` as its member; with `grant`, a role holding sources:write for it. */
async function arrangeMember(api: AdminApi, account: TestAccount, grant: boolean): Promise<Named> {
  if (grant) await api.grant(account.id, ['sources:write']);
  const tenant = await api.send<Named>('POST', '/tenants/', { name: uniqueTag('Sources '), status: 'active' });
  await api.send('PUT', `/tenants/${tenant.id}/members`, [account.id]);
  return tenant;
}

async function selectTenant(page: Page, tenantId: string): Promise<void> {
  await page.evaluate((id) => localStorage.setItem('selectedTenantId', id), tenantId);
}

/** 300 rows of sales, as a person's spreadsheet export would have them. */
function salesCsv(): Buffer {
  const lines = ['region,units,price,sold_on'];
  for (let i = 0; i < 300; i += 1) {
    lines.push(
      `${['north', 'south', 'east'][i % 3]},${i % 7},${(i % 100) + 0.5},2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

async function upload(page: Page, file: { name: string; mimeType: string; buffer: Buffer }, tableName?: string) {
  await page.getByLabel('CSV or Parquet file').setInputFiles(file);
  if (tableName !== undefined) await page.getByRole('textbox', { name: 'Table name' }).fill(tableName);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
}

test('an uploader adds a CSV as a table, meets an unreadable file and a taken name, and deletes it', async ({
  page,
  api,
  user: uploader,
}) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS_DIR, { recursive: true });
  const tenant = await arrangeMember(api, uploader, true);
  await selectTenant(page, tenant.id);

  // The report list leads there.
  await page.goto('/studio/reports');
  await page.getByRole('link', { name: 'Sources', exact: true }).click();
  await expect(page).toHaveURL(/\/studio\/sources$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sources' })).toBeVisible();
  const extractSource = page.getByRole('region', { name: "The tenant's extracts" });
  const extracts = extractSource.getByRole('table', { name: 'Extracts' });
  await expect(extracts).toContainText('No files uploaded yet.');
  await expect(page.getByRole('region', { name: 'Price transparency demo' })).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousA11yViolations(page, `sources, empty, ${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // A CSV becomes a table named after the file, listed with its columns.
  await upload(page, { name: 'Sales 2026.csv', mimeType: 'text/csv', buffer: salesCsv() });
  await expect(toast(page, 'Uploaded: table sales_2026, 300 rows.')).toBeVisible({ timeout: 60_000 });
  const row = extracts.getByRole('row').filter({ hasText: 'sales_2026' });
  await expect(row).toContainText(/4 columns: region \(VARCHAR\), units \(\w+\), price \(\w+\), sold_on \(\w+\)/);
  await expect(row).toContainText('300');
  await expect(row).toContainText('CSV,');
  await expect(page.getByRole('textbox', { name: 'Table name' })).toHaveValue('');

  // A file DuckDB cannot read is refused with the server's reason beside the form, and nothing is kept.
  await upload(page, {
    name: 'broken.parquet',
    mimeType: 'application/vnd.apache.parquet',
    buffer: Buffer.from('PAR1 not really parquet'),
  });
  const unreadable = extractSource.getByRole('alert').filter({ hasText: 'The file could not be read' });
  await expect(unreadable).toContainText('could not be read as Parquet', { timeout: 60_000 });
  await expect(extracts.getByRole('row')).toHaveCount(2);

  // A file over the server's limit (64 MB in these specs) is refused before a byte is sent.
  const scratch = mkdtempSync(path.join(tmpdir(), 'studio-sources-'));
  try {
    const huge = path.join(scratch, 'huge.csv');
    writeFileSync(huge, '');
    truncateSync(huge, 65_000_000);
    const fileField = page.getByLabel('CSV or Parquet file');
    await expect(fileField).toHaveAccessibleDescription('A .csv or .parquet file of at most 64 MB.');
    await fileField.setInputFiles(huge);
    await expect(fileField).toHaveAccessibleDescription('This file is 65 MB: an extract may be at most 64 MB.');
    await expect(fileField).toHaveAttribute('aria-invalid', 'true');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  // The same name again is a 409, said beside the name.
  await upload(page, { name: 'sales.csv', mimeType: 'text/csv', buffer: salesCsv() }, 'sales_2026');
  await expect(extractSource.getByRole('alert').filter({ hasText: 'The name is taken' })).toContainText(
    'delete it first',
    { timeout: 60_000 },
  );
  await expect(page.getByRole('textbox', { name: 'Table name' })).toHaveAttribute('aria-invalid', 'true');

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousA11yViolations(page, `sources with an extract and a refusal, ${scheme}`);
  }
  await page.screenshot({ path: path.join(SHOTS_DIR, 'studio-sources-1280-dark.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'light' });
  await expectNoSeriousA11yViolations(page, 'sources at 390 px, light');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // The row fits: the file's kind and the upload time are left out, Delete stays in view.
  await expect(extracts.getByRole('columnheader', { name: 'Uploaded' })).toBeHidden();
  const deleteBox = await extracts.getByRole('button', { name: 'Delete sales_2026' }).boundingBox();
  const tableBox = await extracts.boundingBox();
  expect((deleteBox?.x ?? Infinity) + (deleteBox?.width ?? 0)).toBeLessThanOrEqual(
    (tableBox?.x ?? 0) + (tableBox?.width ?? 0),
  );
  await page.screenshot({ path: path.join(SHOTS_DIR, 'studio-sources-390-light.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Delete asks first.
  await extracts.getByRole('button', { name: 'Delete sales_2026' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete “sales_2026”?' });
  await expect(confirm).toContainText('This cannot be undone.');
  await expectNoSeriousA11yViolations(page, 'delete confirmation');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, 'Extract “sales_2026” deleted.')).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(extracts).toContainText('No files uploaded yet.');
});

test('a member without sources:write sees the files read-only and is told what uploading needs', async ({
  page,
  api,
  createAccount,
  signIn,
}) => {
  const reader = await createAccount();
  const tenant = await arrangeMember(api, reader, false);
  await signIn(page, reader);
  await selectTenant(page, tenant.id);
  await page.goto('/studio/reports');
  await expect(page.getByRole('link', { name: 'Negotiated rates by payer' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sources', exact: true })).toHaveCount(0);

  await page.goto('/studio/sources');
  const extractSource = page.getByRole('region', { name: "The tenant's extracts" });
  await expect(extractSource).toContainText('Uploading and deleting them needs the sources:write permission');
  await expect(extractSource.getByRole('table', { name: 'Extracts' })).toContainText('No files uploaded yet.');
  await expect(page.getByRole('button', { name: 'Upload', exact: true })).toHaveCount(0);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousA11yViolations(page, `sources read-only, ${scheme}`);
  }
});
