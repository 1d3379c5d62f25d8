import { mkdirSync } from 'node:fs';
import { expectNoSeriousA11yViolations, LONG_WALK_TIMEOUT_MS } from '../support/fixtures.js';
import { isChunk, SIGNED_IN_CHUNKS } from '../support/chunks.js';
import { expect, GLOBAL_403_TEXT, SHOTS_DIR, test, toast, uniqueTag } from '../support/admin.js';

const TABS = [
  ['Users', '/admin/users'],
  ['Roles', '/admin/roles'],
  ['Permissions', '/admin/permissions'],
  ['User Roles', '/admin/user-roles'],
  ['Role Permissions', '/admin/role-permissions'],
  ['Tenants', '/admin/tenants'],
] as const;

test('a plain user whose stored record claims to be a superuser gets the 403 text', async ({
  page,
  createAccount,
  signIn,
}) => {
  const plain = await createAccount();
  // The guard reads the stored record; the server decides from the token.
  await signIn(page, { ...plain, isSuperuser: true });
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  await expect(toast(page, GLOBAL_403_TEXT)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Users' })).toContainText('Users could not be loaded.');
});

test('a revoked token clears the session and goes to /login', async ({ page, admin: _admin, request }) => {
  await page.goto('/admin/roles');
  await expect(page.getByRole('button', { name: 'Add Role' })).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('access_token'));
  const logout = await request.post('/api/v1/logout', { headers: { authorization: `Bearer ${token}` } });
  expect(logout.ok()).toBe(true);

  await page.getByRole('tab', { name: 'Users', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
});

test('a marketing page never loads a signed-in chunk (admin, settings, tenant switcher, Stripe)', async ({
  page,
  createAccount,
  signIn,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  for (const path of ['/studio', '/contact', '/about-us']) {
    await page.goto(path, { waitUntil: 'networkidle' });
    // /contact runs the app on the person's first interaction (decision 058): give it one.
    if (path === '/contact') {
      await page.getByLabel('Name').focus();
      await expect(page.locator('html')).toHaveAttribute('data-app-running', '');
    }
  }
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((path) => SIGNED_IN_CHUNKS.some((chunk) => isChunk(path, chunk)))).toEqual([]);

  // The names are the build's: the payment methods tab of a signed-in user loads the area's and the
  // query client's (the tenant switcher and the card field come with other chunks there).
  scripts.length = 0;
  await signIn(page, await createAccount());
  await page.goto('/settings/payment-methods', { waitUntil: 'networkidle' });
  for (const chunk of ['settings', 'query-client']) {
    expect(
      scripts.some((path) => isChunk(path, chunk)),
      chunk,
    ).toBe(true);
  }
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`in the ${scheme} theme`, () => {
    test.use({ colorScheme: scheme });

    for (const width of [1280, 390] as const) {
      test(`axe finds no serious or critical violation on any admin tab at ${width} px`, async ({
        page,
        admin: _admin,
        api,
      }) => {
        test.setTimeout(LONG_WALK_TIMEOUT_MS);
        const role = await api.createRole(`0-${uniqueTag('axe')}`);
        mkdirSync(SHOTS_DIR, { recursive: true });
        await page.setViewportSize({ width, height: 900 });
        for (const [tab, path] of TABS) {
          await page.goto(path);
          await expect(page.getByRole('tab', { name: tab, exact: true })).toHaveAttribute('aria-selected', 'true');
          const panel = page.getByRole('tabpanel');
          await expect(panel.getByRole('table')).toBeVisible();
          await expect(panel).not.toContainText('Loading');
          await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${scheme}\\b`));
          // Nothing but the table's own box scrolls sideways.
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          await expectNoSeriousA11yViolations(page, `${path} (${scheme}, ${width} px)`);
          await page.screenshot({ path: `${SHOTS_DIR}/admin-${tab.replace(' ', '-')}-${scheme}-${width}.png` });
        }

        await page.goto('/admin/users');
        await page.getByRole('button', { name: 'Add User' }).click();
        await expect(page.getByRole('dialog', { name: 'Create New User' })).toBeVisible();
        await expectNoSeriousA11yViolations(page, `Create New User (${scheme}, ${width} px)`);
        await page.screenshot({ path: `${SHOTS_DIR}/admin-create-user-${scheme}-${width}.png` });
        await page.keyboard.press('Escape');

        await page.goto('/admin/role-permissions');
        await page.getByRole('button', { name: 'Assign Permissions' }).click();
        const dialog = page.getByRole('dialog', { name: 'Assign Permissions to Role' });
        await dialog.getByRole('combobox', { name: 'Role' }).fill(role.name);
        await page.getByRole('option', { name: role.name }).click();
        await expect(dialog.getByRole('list', { name: 'Selected Items' })).toBeVisible();
        await expectNoSeriousA11yViolations(page, `Assign Permissions to Role (${scheme}, ${width} px)`);
        await page.screenshot({ path: `${SHOTS_DIR}/admin-assign-${scheme}-${width}.png` });
      });
    }
  });
}
