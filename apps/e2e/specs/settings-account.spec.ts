import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { apiLogin, expect, test, uniqueEmail } from '../support/fixtures.js';
import { linkIn, waitForMailTo } from '../support/mailbox.js';
import { adminHeaders, grantDownload } from '../support/settings.js';

/** /settings for a person's own account: the tabs, profile, password, downloads and deletion. */

const PLAIN_TABS = [
  'My profile',
  'Subscription Plans',
  'Payment Methods',
  'Billing History',
  'Password',
  'Security',
  'Danger zone',
];

async function tabNames(page: Page): Promise<string[]> {
  return page.getByRole('tablist', { name: 'Settings' }).getByRole('tab').allInnerTexts();
}

test('the tabs are in the SET-TABS-1 order, each at its own URL, reloadable and reachable with Back', async ({
  page,
  user: _user,
}) => {
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/settings\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect.poll(() => tabNames(page)).toEqual(PLAIN_TABS);

  await page.getByRole('tab', { name: 'Billing History' }).click();
  await expect(page).toHaveURL(/\/settings\/billing-history$/);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Billing History' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No transactions found')).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/settings\/profile$/);

  // A hidden tab is refused by URL too: no download role, no downloads.
  await page.goto('/settings/download');
  await expect(page.getByText('No downloads available.')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Download' })).toHaveCount(0);
});

test('a superuser has no Danger zone, and its URL goes to the profile', async ({ page, createAccount, signIn }) => {
  await signIn(page, await createAccount({ isSuperuser: true }));
  await page.goto('/settings/danger-zone');
  await expect(page).toHaveURL(/\/settings\/profile$/);
  await expect.poll(() => tabNames(page)).toEqual(PLAIN_TABS.slice(0, 6));
});

test('the profile edits name and e-mail with the SET-PROFILE-2 rules, and Cancel keeps what was there', async ({
  page,
  user: account,
}) => {
  await page.goto('/settings/profile');
  await expect(page.getByText(account.email)).toBeVisible();

  await page.getByRole('button', { name: 'Edit' }).click();
  const save = page.getByRole('button', { name: 'Save' });
  const name = page.getByLabel('Full name');
  const email = page.getByLabel('Email');
  await expect(save).toBeDisabled();
  const saveBefore = await save.boundingBox();

  await name.fill('A name that is much longer than thirty characters');
  await name.blur();
  await expect(name).toHaveAccessibleDescription('Full name must be at most 30 characters');
  await email.fill('');
  await email.blur();
  await expect(email).toHaveAccessibleDescription('Email is required');
  await expect(save).toBeDisabled();
  // The messages fill lines kept for them: the buttons under the fields do not move.
  expect(await save.boundingBox()).toEqual(saveBefore);
  await email.fill('not-an-address');
  await email.blur();
  await expect(email).toHaveAccessibleDescription('Invalid email address');

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText(account.fullName)).toBeVisible();
  await expect(page.getByText(account.email)).toBeVisible();

  // An address someone else has: the server's message on the field.
  await page.getByRole('button', { name: 'Edit' }).click();
  await email.fill(process.env.E2E_SUPERUSER_EMAIL!);
  await save.click();
  await expect(email).toHaveAccessibleDescription('The user with this email already exists in the system');

  const newEmail = uniqueEmail('renamed');
  await email.fill(newEmail);
  await name.fill('Paula Renamed');
  await save.click();
  await expect(page.getByText('Profile updated successfully')).toBeVisible();
  await expect(page.getByText('Paula Renamed')).toBeVisible();
  // The new address waits for its link (decision 029): the account keeps the old one meanwhile.
  await expect(page.getByText(account.email)).toBeVisible();
  await expect(page.getByText(`Waiting for: ${newEmail}`)).toBeVisible();

  const confirm = await waitForMailTo(newEmail);
  expect(confirm.subject).toBe('Data Platform - Confirm your new e-mail address');
  await page.goto(linkIn(confirm, '/verify-email'));
  await expect(page.getByText('Your e-mail address is changed and verified')).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}') as { email?: string });
  expect(stored.email).toBe(newEmail);
  await page.getByRole('link', { name: 'Go to your settings' }).click();
  await expect(page.getByText(newEmail)).toBeVisible();
  await expect(page.getByText(/^Waiting for:/)).toHaveCount(0);
  // The old address is told.
  expect((await waitForMailTo(account.email)).subject).toBe('Data Platform - Your e-mail address was changed');
});

test('the password changes with the AUTH-VALID messages, and this session stays signed in', async ({
  page,
  request,
  user: account,
}) => {
  await page.goto('/settings/password');
  const current = page.getByRole('textbox', { name: 'Current Password', exact: true });
  const next = page.getByRole('textbox', { name: 'New Password', exact: true });
  const confirm = page.getByRole('textbox', { name: 'Confirm Password', exact: true });
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();

  await current.focus();
  await current.blur();
  await expect(current).toHaveAccessibleDescription('Password is required');
  await next.fill('short');
  await next.blur();
  await expect(next).toHaveAccessibleDescription('Password must be at least 8 characters');
  await confirm.focus();
  await confirm.blur();
  await expect(confirm).toHaveAccessibleDescription('Password confirmation is required');
  await next.fill('a-new-password-1');
  await confirm.fill('something else');
  await confirm.blur();
  await expect(confirm).toHaveAccessibleDescription('The passwords do not match');
  await expect(save).toBeDisabled();

  await current.fill('not-my-password');
  await confirm.fill('a-new-password-1');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(current).toHaveAccessibleDescription('Incorrect password');

  await current.fill(account.password);
  await save.click();
  await expect(page.getByText(/Password updated successfully/)).toBeVisible();
  await expect(current).toHaveValue('');
  await expect(next).toHaveValue('');

  // Still signed in here; the new password is the one that works.
  await page.goto('/settings/profile');
  await expect(page.getByText(account.email)).toBeVisible();
  const refused = await request.post('/api/v1/login/access-token', {
    form: { username: account.email, password: account.password },
  });
  expect(refused.status()).toBe(400);
  await apiLogin(request, account.email, 'a-new-password-1');
});

test('a download role gives a button whose file arrives under its server-given name; a revoked one alerts', async ({
  page,
  request,
  user: account,
}) => {
  const content = 'quarter,revenue\nQ1,100\n';
  const { file, storedName } = await grantDownload(request, account, content);
  await page.goto('/settings');
  await expect.poll(() => tabNames(page)).toContain('Download');
  await page.getByRole('tab', { name: 'Download' }).click();

  const label = file.replaceAll('_', ' ');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: label }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(storedName);
  expect(readFileSync(await download.path(), 'utf8')).toBe(content);

  // The role is taken away while the page is open: the server refuses, the page says so.
  const revoked = await request.put(`/api/v1/authorization/user/${account.id}/roles`, {
    headers: await adminHeaders(request),
    data: [],
  });
  expect(revoked.status()).toBe(200);
  // The handler answers the alert as it opens: awaiting the dialog and accepting it afterwards
  // raced the page's own events under load and once hung until the test's timeout.
  const alerts: string[] = [];
  page.once('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  await page.getByRole('button', { name: label }).click();
  await expect.poll(() => alerts).toEqual(['You are not authorized to download this file.']);
});

test('deleting the account asks first, then ends at /login with the account gone', async ({
  page,
  request,
  user: account,
}) => {
  await page.goto('/settings/danger-zone');
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirmation Required' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Confirmation Required' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => [localStorage.getItem('access_token'), localStorage.getItem('user')])).toEqual([
    null,
    null,
  ]);
  const login = await request.post('/api/v1/login/access-token', {
    form: { username: account.email, password: account.password },
  });
  expect(login.status()).toBe(400);
});

test('after logout the next person in the same tab sees nothing of the last one’s data', async ({
  page,
  createAccount,
  signIn,
}) => {
  const first = await createAccount();
  const second = await createAccount();
  await signIn(page, first);
  await page.goto('/settings/profile');
  await expect(page.getByText(first.email)).toBeVisible();
  await page.evaluate(() => localStorage.setItem('selectedTenantId', 'some-tenant'));

  await page.getByRole('button', { name: 'account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('selectedTenantId'))).toBeNull();

  await page.getByLabel('Email').fill(second.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(second.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).not.toHaveURL(/\/login$/);
  await page.getByRole('button', { name: 'account menu' }).click();
  await page.getByRole('menuitem', { name: 'My Profile' }).click();
  await expect(page.getByText(second.email)).toBeVisible();
  await expect(page.getByText(first.email)).toHaveCount(0);
});
