import { generate } from 'otplib';
import { deleteRow, expect, test, toast, uniqueTag } from '../support/admin.js';
import { apiLogin, expectNoSeriousA11yViolations } from '../support/fixtures.js';

test('the admin area opens on the Users tab, and every tab has its own URL', async ({ page, admin: _admin }) => {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/users$/);
  const tabs = page.getByRole('tablist', { name: 'Admin sections' }).getByRole('tab');
  // The six of ADM-LAYOUT-1, single sign-on (SSO-1), then the contact inbox (with its unread count) and the audit log.
  await expect(tabs).toHaveText([
    'Users',
    'Roles',
    'Permissions',
    'User Roles',
    'Role Permissions',
    'Tenants',
    'Single Sign-On',
    // The count is a chip of its own: the tab's text runs "Contacts" and "2 unread" together (its
    // accessible name has the space; admin-inbox.spec.ts checks that).
    /^Contacts( ?\d+ unread)?$/,
    'Audit Log',
  ]);
  await expect(page.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText(/^1–\d+ of \d+$/)).toBeVisible();

  for (const [tab, path] of [
    ['Roles', '/admin/roles'],
    ['Permissions', '/admin/permissions'],
    ['User Roles', '/admin/user-roles'],
    ['Role Permissions', '/admin/role-permissions'],
    ['Tenants', '/admin/tenants'],
    ['Single Sign-On', '/admin/sso'],
    ['Audit Log', '/admin/audit-log'],
    ['Users', '/admin/users'],
  ] as const) {
    await page.getByRole('tab', { name: tab, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
  await page.goto('/admin/tenants');
  await expect(page.getByRole('tab', { name: 'Tenants' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Add Tenant' })).toBeVisible();
});

test('pages through 25 users ten at a time, found by the server-side search', async ({ page, admin: _admin, api }) => {
  const tag = uniqueTag('page');
  // One after another: the list is in creation order.
  for (let i = 0; i < 25; i += 1) {
    await api.createUser(`${tag}-${String(i).padStart(2, '0')}@example.com`, i % 2 === 0 ? `Pager ${i}` : null);
  }
  await page.goto('/admin/users');
  const table = page.getByRole('table', { name: 'Users' });
  await expect(page.getByText(/^1–10 of \d+$/)).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search users' }).fill(tag.toUpperCase());
  await expect(page.getByText('1–10 of 25', { exact: true })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(11);
  await expect(table.getByRole('row').nth(1)).toContainText(`${tag}-00@example.com`);
  // Full Name is a dash when empty; Status and Role are chips.
  await expect(table.getByRole('row').nth(2)).toContainText(`${tag}-01@example.com-ActiveUser`);

  const previous = page.getByRole('button', { name: 'Go to previous page' });
  const next = page.getByRole('button', { name: 'Go to next page' });
  await expect(previous).toBeDisabled();
  await next.click();
  await expect(page.getByText('11–20 of 25', { exact: true })).toBeVisible();
  await expect(table.getByRole('row').nth(1)).toContainText(`${tag}-10@example.com`);
  await next.click();
  await expect(page.getByText('21–25 of 25', { exact: true })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(6);
  await expect(next).toBeDisabled();
  await previous.click();
  await expect(page.getByText('11–20 of 25', { exact: true })).toBeVisible();
  await expect(table.getByRole('row').nth(10)).toContainText(`${tag}-19@example.com`);

  // A name matches too; a search that finds nobody says so.
  await page.getByRole('searchbox', { name: 'Search users' }).fill(`${tag}-nobody`);
  await expect(table).toContainText(`No users match "${tag}-nobody".`);
});

test('on a narrow screen a list that finds nobody says so inside the part of the table in view', async ({
  page,
  admin: _admin,
}) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/admin/users');
  const nobody = `${uniqueTag('none')}-nobody`;
  await page.getByRole('searchbox', { name: 'Search users' }).fill(nobody);
  const message = page.getByText(`No users match "${nobody}".`, { exact: true });
  await expect(message).toBeVisible();
  // The table's columns are wider than the screen: its region scrolls sideways.
  const region = page.getByRole('region', { name: 'Users' });
  const widths = await region.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
  expect(widths.scroll).toBeGreaterThan(widths.client);

  const placeOfMessage = async () => {
    const [box, frame] = await Promise.all([message.boundingBox(), region.boundingBox()]);
    if (!box || !frame) throw new Error('the message or the table region has no box');
    return { box, frame };
  };
  for (const scroll of ['start', 'end'] as const) {
    await region.evaluate((element, to) => {
      element.scrollLeft = to === 'start' ? 0 : element.scrollWidth;
    }, scroll);
    // Whole inside the region's box, and centred in it (a pixel or two of rounding allowed).
    await expect
      .poll(async () => {
        const { box, frame } = await placeOfMessage();
        return box.x >= frame.x - 1 && box.x + box.width <= frame.x + frame.width + 1;
      })
      .toBe(true);
    const { box, frame } = await placeOfMessage();
    expect(Math.abs(box.x + box.width / 2 - (frame.x + frame.width / 2))).toBeLessThanOrEqual(2);
  }
});

test('creates, edits and deletes a user through the dialogs, with their rules and toasts', async ({
  page,
  admin: _admin,
  api,
}) => {
  const tag = uniqueTag('crud');
  const email = `${tag}@example.com`;
  await page.goto('/admin/users');
  await expect(page.getByText(/^1–\d+ of \d+$/)).toBeVisible();

  await page.getByRole('button', { name: 'Add User' }).click();
  let dialog = page.getByRole('dialog', { name: 'Create New User' });
  const create = dialog.getByRole('button', { name: 'Create' });
  await expect(create).toBeDisabled();
  await expect(dialog.getByText('Email and password are required')).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: 'Active' })).toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: 'Admin' })).not.toBeChecked();
  await dialog.getByLabel('Email').fill('not-an-email');
  await dialog.getByLabel('Full Name').focus();
  await expect(dialog.getByText('Invalid email address')).toBeVisible();
  await expect(create).toBeDisabled();
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill('   ');
  await expect(create).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill('long-enough-1');
  await expect(create).toBeEnabled();
  await expect(dialog.getByText('Email and password are required')).toHaveCount(0);
  await dialog.getByLabel('Full Name').fill('Grace Hopper');
  await create.click();
  await expect(toast(page, 'User created successfully')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  const search = page.getByRole('searchbox', { name: 'Search users' });
  await search.fill(tag);
  const table = page.getByRole('table', { name: 'Users' });
  const row = table.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText(`${email}Grace HopperActiveUser`);

  // The form starts empty again.
  await page.getByRole('button', { name: 'Add User' }).click();
  dialog = page.getByRole('dialog', { name: 'Create New User' });
  await expect(dialog.getByLabel('Email')).toHaveValue('');
  await expect(dialog.getByLabel('Full Name')).toHaveValue('');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  await row.getByRole('button', { name: `Edit user ${email}` }).click();
  dialog = page.getByRole('dialog', { name: 'Edit User' });
  const save = dialog.getByRole('button', { name: 'Save' });
  await expect(dialog.getByLabel('Email')).toHaveValue(email);
  await expect(dialog.getByLabel('Full Name')).toHaveValue('Grace Hopper');
  await expect(dialog.getByRole('textbox', { name: 'Password' })).toHaveCount(0);
  await dialog.getByLabel('Email').fill('  ');
  await expect(save).toBeDisabled();
  await expect(dialog.getByText('Email is required')).toBeVisible();
  await dialog.getByLabel('Email').fill(email);
  await expect(save).toBeEnabled();
  await dialog.getByLabel('Full Name').fill('Grace B. Hopper');
  await dialog.getByRole('checkbox', { name: 'Active' }).uncheck();
  await dialog.getByRole('checkbox', { name: 'Admin' }).check();
  await save.click();
  await expect(toast(page, 'User updated successfully')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(row).toContainText(`${email}Grace B. HopperInactiveAdmin`);

  await deleteRow(page, row, 'user', email);
  await expect(table).toContainText(`No users match "${tag}".`);
  const left = await api.send<{ count: number }>('GET', `/users/?q=${tag}`);
  expect(left.count).toBe(0);
});

test('a superuser cannot delete, deactivate or demote themselves: the controls say why, the server refuses', async ({
  page,
  admin,
  request,
  createAccount,
}) => {
  await page.goto('/admin/users');
  await page.getByRole('searchbox', { name: 'Search users' }).fill(admin.email);
  const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: admin.email });
  await expect(row).toContainText('(you)');
  const protectedDelete = row.getByRole('button', { name: `Delete user ${admin.email}` });
  await expect(protectedDelete).toHaveAttribute('aria-disabled', 'true');
  await expect(protectedDelete).toHaveAccessibleDescription(
    'You cannot delete or deactivate your own account, or remove your own admin role.',
  );
  // Focusable, so the reason is heard; pressing it does nothing.
  await protectedDelete.click({ force: true });
  await expect(page.getByRole('dialog', { name: 'Delete User' })).toHaveCount(0);

  await row.getByRole('button', { name: `Edit user ${admin.email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit User' });
  await expect(dialog.getByRole('checkbox', { name: 'Active' })).toBeDisabled();
  await expect(dialog.getByRole('checkbox', { name: 'Admin' })).toBeDisabled();
  await expect(dialog.getByRole('checkbox', { name: 'Admin' })).toHaveAccessibleDescription(
    'You cannot delete or deactivate your own account, or remove your own admin role.',
  );
  // Renaming oneself is allowed.
  await dialog.getByLabel('Full Name').fill('Ada Self');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'User updated successfully')).toBeVisible();
  await expect(row).toContainText('Ada Self');

  // The server refuses the same changes whoever asks, with a reason.
  const token = await page.evaluate(() => localStorage.getItem('access_token'));
  const headers = { authorization: `Bearer ${token}` };
  const remove = await request.delete(`/api/v1/users/${admin.id}`, { headers });
  expect(remove.status()).toBe(400);
  expect(await remove.json()).toEqual({ detail: 'You cannot delete your own account', code: 'bad_request' });
  const demote = await request.patch(`/api/v1/users/${admin.id}`, { headers, data: { is_superuser: false } });
  expect(await demote.json()).toEqual({ detail: 'You cannot change your own superuser status', code: 'bad_request' });
  const deactivate = await request.patch(`/api/v1/users/${admin.id}`, { headers, data: { is_active: false } });
  expect(await deactivate.json()).toEqual({ detail: 'You cannot deactivate your own account', code: 'bad_request' });

  // Another superuser's controls are live.
  const other = await createAccount({ isSuperuser: true });
  await page.getByRole('searchbox', { name: 'Search users' }).fill(other.email);
  const otherDelete = page
    .getByRole('table', { name: 'Users' })
    .getByRole('button', { name: `Delete user ${other.email}` });
  await expect(otherDelete).not.toHaveAttribute('aria-disabled', 'true');
  await otherDelete.click();
  await expect(page.getByRole('dialog', { name: 'Delete User' })).toContainText(other.email);
});

test('resets the second factor of a user who lost it: they are signed out and sign in with the password alone', async ({
  page,
  admin,
  createAccount,
  request,
}) => {
  const account = await createAccount();
  // The user turns two-factor sign-in on (over the API: the Security tab has its own spec).
  const token = await apiLogin(request, account.email, account.password);
  const headers = { authorization: `Bearer ${token}` };
  const setup = await request.post('/api/v1/users/me/two-factor/setup', { headers });
  const { secret } = (await setup.json()) as { secret: string };
  const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) });
  expect((await request.post('/api/v1/users/me/two-factor/confirm', { headers, data: { code } })).status()).toBe(200);

  await page.goto('/admin/users');
  await page.getByRole('searchbox', { name: 'Search users' }).fill(account.email);
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await table.getByRole('button', { name: `Reset two-factor authentication of user ${account.email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset Two-Factor Authentication' });
  await expect(dialog).toContainText(`Turn off two-factor authentication for "${account.email}"`);
  await expectNoSeriousA11yViolations(page, 'reset two-factor dialog');
  await dialog.getByRole('button', { name: 'Reset' }).click();
  await expect(
    toast(page, `Two-factor authentication is off for ${account.email}; they are signed out everywhere`),
  ).toBeVisible();

  // The session the user had is over; the password alone now answers a session.
  expect((await request.get('/api/v1/users/me', { headers })).status()).toBe(401);
  expect(await apiLogin(request, account.email, account.password)).toEqual(expect.any(String));

  // Their own row: the control is there, explains itself, and does nothing (the server refuses too).
  await page.getByRole('searchbox', { name: 'Search users' }).fill(admin.email);
  const own = table.getByRole('button', { name: `Reset two-factor authentication of user ${admin.email}` });
  await expect(own).toHaveAttribute('aria-disabled', 'true');
  await expect(own).toHaveAccessibleDescription(/under Settings, Security, with your password and a code/);
  await own.click({ force: true });
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
