import { expect, findRow, openTab, test, toast, uniqueTag } from '../support/admin.js';

for (const noun of ['Role', 'Permission'] as const) {
  test(`creates, edits and deletes a ${noun.toLowerCase()} through the dialogs, with their rules and toasts`, async ({
    page,
    admin: _admin,
    api,
  }) => {
    const lower = noun.toLowerCase();
    // Names starting with "0" sort first, so the new row is on the first page.
    const name = `0-${uniqueTag(lower)}`;
    await page.goto('/admin');
    await openTab(page, `${noun}s`);
    const table = page.getByRole('table', { name: `${noun}s` });
    await expect(table.getByRole('row').nth(1)).not.toContainText('Loading');
    await expect(table.getByRole('columnheader')).toHaveText(['Name', 'Description', 'Actions']);

    await page.getByRole('button', { name: `Add ${noun}` }).click();
    let dialog = page.getByRole('dialog', { name: `Create New ${noun}` });
    const create = dialog.getByRole('button', { name: 'Create' });
    await expect(create).toBeDisabled();
    await expect(dialog.getByText(`${noun} name is required`)).toBeVisible();
    await dialog.getByLabel('Name').fill('   ');
    await expect(create).toBeDisabled();
    await dialog.getByLabel('Name').fill(name);
    await expect(create).toBeEnabled();
    await expect(dialog.getByText(`${noun} name is required`)).toHaveCount(0);
    await dialog.getByLabel('Description').fill('First description');
    await create.click();
    await expect(toast(page, `${noun} created successfully`)).toBeVisible();
    await expect(dialog).toHaveCount(0);
    const row = await findRow(page, table, name);
    await expect(row).toContainText(`${name}First description`);

    await row.getByRole('button', { name: `Edit ${lower} ${name}` }).click();
    dialog = page.getByRole('dialog', { name: `Edit ${noun}` });
    const save = dialog.getByRole('button', { name: 'Save' });
    await expect(dialog.getByLabel('Name')).toHaveValue(name);
    await dialog.getByLabel('Name').fill('');
    await expect(save).toBeDisabled();
    await expect(dialog.getByText(`${noun} name is required`)).toBeVisible();
    await dialog.getByLabel('Name').fill(`${name}-renamed`);
    await dialog.getByLabel('Description').fill('Second description');
    await save.click();
    await expect(toast(page, `${noun} updated successfully`)).toBeVisible();
    await expect(dialog).toHaveCount(0);
    const renamed = await findRow(page, table, `${name}-renamed`);
    await expect(renamed).toContainText(`${name}-renamedSecond description`);

    await renamed.getByRole('button', { name: `Delete ${lower} ${name}-renamed` }).click();
    dialog = page.getByRole('dialog', { name: `Delete ${noun}` });
    await expect(dialog).toContainText(
      `Are you sure you want to delete the ${lower} "${name}-renamed"? This action cannot be undone.`,
    );
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, `${noun} deleted successfully`)).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(table).not.toContainText(`${name}-renamed`);
    const path = noun === 'Role' ? '/authorization/roles?limit=1000' : '/authorization/permissions?limit=1000';
    const left = await api.send<{ data: { name: string }[] }>('GET', path);
    expect(left.data.map((item) => item.name)).not.toContain(`${name}-renamed`);
  });
}

test('built-in permissions are marked and can be neither renamed nor deleted', async ({ page, admin: _admin }) => {
  await page.goto('/admin/permissions');
  const table = page.getByRole('table', { name: 'Permissions' });
  const row = await findRow(page, table, 'audit:read');
  await expect(row).toContainText('Built-in');
  const remove = row.getByRole('button', { name: 'Delete permission audit:read' });
  await expect(remove).toHaveAttribute('aria-disabled', 'true');
  await expect(remove).toHaveAccessibleDescription('Built-in permissions cannot be renamed or deleted');
  // Focusable, so the reason is heard; pressing it does nothing.
  await remove.click({ force: true });
  await expect(page.getByRole('dialog', { name: 'Delete Permission' })).toHaveCount(0);
  await row.getByRole('button', { name: 'Edit permission audit:read' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Permission' });
  await expect(dialog.getByLabel('Name')).toBeDisabled();
  await expect(dialog.getByLabel('Name')).toHaveAccessibleDescription(
    'Built-in permissions cannot be renamed or deleted',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
});

test('assigns roles to a user with the transfer list and reads the result back', async ({
  page,
  admin: _admin,
  api,
}) => {
  const tag = uniqueTag('ur');
  const user = await api.createUser(`${tag}@example.com`, 'Role Holder');
  const kept = await api.createRole(`${tag}-kept`);
  const added = await api.createRole(`${tag}-added`);
  await api.send('PUT', `/authorization/user/${user.id}/roles`, [kept.id]);

  await page.goto('/admin/user-roles');
  // The e2e server bills through the sandbox, whose test clock has a column once the billing
  // configuration has loaded (SANDBOX-CLOCK-1): waiting for all three keeps this from racing it.
  await expect(page.getByRole('table', { name: 'Users and their roles' }).getByRole('columnheader')).toHaveText([
    'Email',
    'Roles',
    'Sandbox billing clock',
  ]);
  await page.getByRole('button', { name: 'Assign Roles' }).click();
  const dialog = page.getByRole('dialog', { name: 'Assign Roles to User' });
  const assign = dialog.getByRole('button', { name: 'Assign' });
  await expect(assign).toBeDisabled();

  await dialog.getByRole('combobox', { name: 'User' }).fill(tag);
  await page.getByRole('option', { name: new RegExp(`${tag}@example.com`) }).click();
  const available = dialog.getByRole('list', { name: 'Available Items' });
  const selected = dialog.getByRole('list', { name: 'Selected Items' });
  // The user's current roles are preloaded on the right; the others wait on the left.
  await expect(selected.getByText(kept.name)).toBeVisible();
  await expect(selected.getByText(added.name)).toHaveCount(0);
  await expect(available.getByText(added.name)).toBeVisible();
  await expect(assign).toBeEnabled();

  await dialog.getByRole('button', { name: 'move all left' }).click();
  await expect(selected).toContainText('None');
  await expect(assign).toBeDisabled();
  await dialog.getByRole('button', { name: 'move all right' }).click();
  await expect(available).toContainText('None');
  await expect(assign).toBeEnabled();
  await dialog.getByRole('button', { name: 'move all left' }).click();

  await available.getByRole('checkbox', { name: added.name }).check();
  await dialog.getByRole('button', { name: 'move selected right' }).click();
  await expect(selected.getByText(added.name)).toBeVisible();
  await selected.getByRole('checkbox', { name: added.name }).check();
  await dialog.getByRole('button', { name: 'move selected left' }).click();
  await expect(selected).toContainText('None');
  await available.getByRole('checkbox', { name: added.name }).check();
  await available.getByRole('checkbox', { name: kept.name }).check();
  await dialog.getByRole('button', { name: 'move selected right' }).click();
  await expect(selected.getByText(kept.name)).toBeVisible();
  await expect(selected.getByText(added.name)).toBeVisible();

  await assign.click();
  await expect(toast(page, 'Roles assigned successfully')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  expect(await api.rolesOfUser(user.id)).toEqual([added.name, kept.name].sort());

  // The selection starts over when the dialog opens again.
  await page.getByRole('button', { name: 'Assign Roles' }).click();
  await expect(dialog.getByRole('combobox', { name: 'User' })).toHaveValue('');
  await expect(dialog.getByRole('button', { name: 'Assign' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
});

test('assigns permissions to a role with the transfer list and reads the result back', async ({
  page,
  admin: _admin,
  api,
}) => {
  const tag = uniqueTag('rp');
  const role = await api.createRole(`0-${tag}-role`);
  const first = await api.createPermission(`${tag}:first`);
  const second = await api.createPermission(`${tag}:second`);
  await api.send('PUT', `/authorization/role/${role.id}/permissions`, [first.id]);

  await page.goto('/admin/role-permissions');
  const table = page.getByRole('table', { name: 'Roles and their permissions' });
  const row = await findRow(page, table, role.name);
  await expect(row).toContainText(first.name);

  await page.getByRole('button', { name: 'Assign Permissions' }).click();
  const dialog = page.getByRole('dialog', { name: 'Assign Permissions to Role' });
  const assign = dialog.getByRole('button', { name: 'Assign' });
  await expect(assign).toBeDisabled();
  await dialog.getByRole('combobox', { name: 'Role' }).fill(role.name);
  await page.getByRole('option', { name: role.name }).click();
  const available = dialog.getByRole('list', { name: 'Available Items' });
  const selected = dialog.getByRole('list', { name: 'Selected Items' });
  await expect(selected.getByText(first.name)).toBeVisible();
  await expect(available.getByText(second.name)).toBeVisible();
  await selected.getByRole('checkbox', { name: first.name }).check();
  await dialog.getByRole('button', { name: 'move selected left' }).click();
  await expect(assign).toBeDisabled();
  await available.getByRole('checkbox', { name: second.name }).check();
  await dialog.getByRole('button', { name: 'move selected right' }).click();
  await expect(assign).toBeEnabled();
  await assign.click();
  await expect(toast(page, 'Permissions assigned successfully')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  expect(await api.permissionsOfRole(role.id)).toEqual([second.name]);
  await expect(row).toContainText(second.name);
  await expect(row).not.toContainText(first.name);
});
