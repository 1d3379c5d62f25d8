import { deleteRow, expect, SHOTS_DIR, TENANT_DB_URL, test, toast, uniqueTag } from '../support/admin.js';

/** The password part of a PostgreSQL URL (what must never reach the page). */
function passwordOf(url: string): string {
  return decodeURIComponent(new URL(url).password);
}

test('creates, checks, edits and deletes a tenant; its database password never reaches the page', async ({
  page,
  admin: _admin,
  api,
}) => {
  const password = passwordOf(TENANT_DB_URL);
  expect(password.length).toBeGreaterThan(0);
  // Names starting with "0" sort first, so the new row is on the first page.
  const name = `0 ${uniqueTag('tenant')}`;
  await page.goto('/admin/tenants');
  const table = page.getByRole('table', { name: 'Tenants' });
  await expect(table.getByRole('row').nth(1)).not.toContainText('Loading');
  await expect(table.getByRole('columnheader')).toHaveText([
    'Name',
    'Description',
    'Status',
    'Database URL',
    'Actions',
  ]);

  await page.getByRole('button', { name: 'Add Tenant' }).click();
  let dialog = page.getByRole('dialog', { name: 'Create New Tenant' });
  const create = dialog.getByRole('button', { name: 'Create' });
  await expect(create).toBeDisabled();
  await expect(dialog.getByText('Tenant name is required')).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: 'Active' })).toBeChecked();
  await dialog.getByLabel('Name').fill(name);
  await expect(create).toBeEnabled();
  await dialog.getByLabel('Description').fill('Checked against the local server');
  await dialog.getByLabel('Database URL').fill('mysql://nope');
  await dialog.getByLabel('Description').focus();
  await expect(
    dialog.getByText('Database URL must look like postgresql://user:password@host:5432/database'),
  ).toBeVisible();
  await dialog.getByLabel('Database URL').fill(TENANT_DB_URL);
  await create.click();
  await expect(toast(page, 'Tenant created successfully')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  const row = table.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Checked against the local server');
  await expect(row).toContainText('active');
  await expect(row).toContainText(':****@');
  const stored = await api.tenantByName(name);
  expect(stored?.dburl).toContain(':****@');

  // The check connects with the stored password: the server's version and the latency come back.
  await row.getByRole('button', { name: `Check connection of tenant ${name}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Connected to the database of "${name}"` })).toContainText(
    /: PostgreSQL \d+\S*.*, \d+ ms\.$/,
  );

  await page.screenshot({ path: `${SHOTS_DIR}/admin-tenant-checked-1280.png` });
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: `${SHOTS_DIR}/admin-tenant-checked-390.png` });
  await page.setViewportSize({ width: 1280, height: 720 });

  await row.getByRole('button', { name: `Edit tenant ${name}` }).click();
  dialog = page.getByRole('dialog', { name: 'Edit Tenant' });
  const save = dialog.getByRole('button', { name: 'Save' });
  await expect(dialog.getByLabel('Database URL')).toHaveValue(stored?.dburl ?? '');
  await dialog.getByLabel('Name').fill('');
  await expect(save).toBeDisabled();
  await expect(dialog.getByText('Tenant name is required')).toBeVisible();
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Description').fill('Now inactive');
  await dialog.getByRole('checkbox', { name: 'Active' }).uncheck();
  await save.click();
  await expect(toast(page, 'Tenant updated successfully')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(row).toContainText('Now inactive');
  await expect(row.getByText('inactive', { exact: true })).toBeVisible();

  // Saving the masked URL back kept the password: the check still connects.
  await row.getByRole('button', { name: `Check connection of tenant ${name}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Connected to the database of "${name}"` })).toBeVisible();

  // Nowhere on the page, in any text or field, is the password.
  const html = await page.content();
  expect(html).not.toContain(`:${password}@`);
  expect(html).not.toContain(encodeURIComponent(password) + '@');

  await deleteRow(page, row, 'tenant', name);
  await expect(table).not.toContainText(name);
  expect(await api.tenantByName(name)).toBeUndefined();
});

test("a failing connection check shows the driver's reason; a tenant without a URL shows a dash", async ({
  page,
  admin: _admin,
  api,
}) => {
  const broken = `0 ${uniqueTag('broken')}`;
  const bare = `0 ${uniqueTag('bare')}`;
  // Port 1 on loopback: nothing listens there.
  await api.send('POST', '/tenants/', { name: broken, dburl: 'postgresql://nobody:secret-pw@127.0.0.1:1/none' });
  await api.send('POST', '/tenants/', { name: bare, status: 'inactive' });
  await page.goto('/admin/tenants');
  const table = page.getByRole('table', { name: 'Tenants' });
  const bareRow = table.getByRole('row').filter({ hasText: bare });
  await expect(bareRow).toContainText(`${bare}-inactive-`);
  await expect(bareRow.getByRole('button', { name: `Check connection of tenant ${bare}` })).toBeDisabled();

  const row = table.getByRole('row').filter({ hasText: broken });
  await row.getByRole('button', { name: `Check connection of tenant ${broken}` }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `Could not connect to the database of "${broken}": ` }),
  ).toBeVisible();
  expect(await page.content()).not.toContain('secret-pw');
});

test('edits the members of a tenant with the transfer list', async ({ page, admin: _admin, api }) => {
  const tag = uniqueTag('member');
  const name = `0 ${tag}`;
  const tenant = await api.send<{ id: string }>('POST', '/tenants/', { name });
  const first = await api.createUser(`${tag}-first@example.com`);
  const second = await api.createUser(`${tag}-second@example.com`);
  await api.send('PUT', `/tenants/${tenant.id}/members`, [first.id]);

  await page.goto('/admin/tenants');
  const row = page.getByRole('table', { name: 'Tenants' }).getByRole('row').filter({ hasText: name });
  await row.getByRole('button', { name: `Members of tenant ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Members of ${name}` });
  const available = dialog.getByRole('list', { name: 'Available Items' });
  const selected = dialog.getByRole('list', { name: 'Selected Items' });
  await expect(selected.getByText(first.email)).toBeVisible();

  await dialog.getByRole('searchbox', { name: 'Find users' }).fill(`${tag}-second`);
  await available.getByRole('checkbox', { name: second.email }).check();
  await dialog.getByRole('button', { name: 'move selected right' }).click();
  await selected.getByRole('checkbox', { name: first.email }).check();
  await dialog.getByRole('button', { name: 'move selected left' }).click();
  await expect(selected.getByText(second.email)).toBeVisible();
  await expect(selected.getByText(first.email)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Members updated successfully')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  expect(await api.send<string[]>('GET', `/tenants/${tenant.id}/members`)).toEqual([second.id]);
});
