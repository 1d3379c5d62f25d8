import type { Browser, Page } from '@playwright/test';
import {
  documentationAddress,
  expect,
  expectNoSeriousA11yViolations,
  LONG_WALK_TIMEOUT_MS,
  test,
  type TestAccount,
} from '../support/fixtures.js';

/** The sessions list of the Security tab, and a superuser's "sign out everywhere" (decision 027). */

// Every browser of these specs comes from an address of its own, as separate devices would (and so
// the suite's many logins do not share one address's limit).
test.use({ extraHTTPHeaders: { 'x-forwarded-for': documentationAddress() } });

// Each test signs in from two or three browsers through the login screen: a minute on a slow CI host
// (one ran out of the default bound while its last assertion was still passing), so the long bound.
test.describe.configure({ timeout: LONG_WALK_TIMEOUT_MS });

/** Another browser, on another address. */
function anotherBrowser(browser: Browser, colorScheme: 'light' | 'dark' = 'light') {
  return browser.newContext({ colorScheme, extraHTTPHeaders: { 'x-forwarded-for': documentationAddress() } });
}

async function logInThroughScreen(page: Page, account: TestAccount) {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Log In' })).toBeVisible();
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).not.toHaveURL(/\/login$/);
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`in the ${scheme} theme`, () => {
    test.use({ colorScheme: scheme });

    test('signs out another session from the list; that browser is sent to log in', async ({
      browser,
      page,
      createAccount,
    }) => {
      const account = await createAccount();
      const other = await anotherBrowser(browser, scheme);
      const otherPage = await other.newPage();
      await logInThroughScreen(otherPage, account);
      await logInThroughScreen(page, account);

      await page.goto('/settings/security');
      const list = page.getByRole('list', { name: 'Active sessions' });
      await expect(list.getByRole('listitem')).toHaveCount(2);
      const current = list.getByRole('listitem').filter({ hasText: 'This device' });
      await expect(current).toHaveCount(1);
      await expect(current.getByRole('heading')).toContainText('Chrom');
      await expectNoSeriousA11yViolations(page, `Security tab with two sessions (${scheme})`);

      await list.getByRole('button', { name: /^Sign out / }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign Out Session' });
      await expectNoSeriousA11yViolations(page, `sign-out confirmation (${scheme})`);
      await dialog.getByRole('button', { name: 'Sign out' }).click();
      await expect(page.getByText('Session signed out')).toBeVisible();
      await expect(list.getByRole('listitem')).toHaveCount(1);
      await expect(page.getByText('You are not signed in anywhere else.')).toBeVisible();

      // The other browser's token is refused at its next request: it ends on the login screen.
      await otherPage.goto('/settings/profile');
      await expect(otherPage).toHaveURL(/\/login/);
      // This one stays signed in.
      await page.reload();
      await expect(page.getByRole('tab', { name: 'Security' })).toHaveAttribute('aria-selected', 'true');
      await other.close();
    });
  });
}

test('signs out all other sessions at once', async ({ browser, page, createAccount }) => {
  const account = await createAccount();
  const others = await Promise.all([anotherBrowser(browser), anotherBrowser(browser)]);
  const otherPages = await Promise.all(others.map((context) => context.newPage()));
  for (const otherPage of otherPages) await logInThroughScreen(otherPage, account);
  await logInThroughScreen(page, account);

  await page.goto('/settings/security');
  await expect(page.getByRole('list', { name: 'Active sessions' }).getByRole('listitem')).toHaveCount(3);
  await page.getByRole('button', { name: 'Sign out all other sessions' }).click();
  await page
    .getByRole('dialog', { name: 'Sign Out Other Sessions' })
    .getByRole('button', { name: 'Sign out all' })
    .click();
  await expect(page.getByText('Signed out 2 other sessions')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Active sessions' }).getByRole('listitem')).toHaveCount(1);
  for (const otherPage of otherPages) {
    await otherPage.goto('/settings/profile');
    await expect(otherPage).toHaveURL(/\/login/);
  }
  await Promise.all(others.map((context) => context.close()));
});

test('a superuser signs a user out everywhere from the Users tab', async ({ browser, page, createAccount, signIn }) => {
  const person = await createAccount();
  const personContext = await anotherBrowser(browser);
  const personPage = await personContext.newPage();
  await logInThroughScreen(personPage, person);

  await signIn(page, await createAccount({ isSuperuser: true }));
  await page.goto('/admin/users');
  await page.getByRole('searchbox', { name: 'Search users' }).fill(person.email);
  await page.getByRole('button', { name: `Sign out user ${person.email} everywhere` }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign Out Everywhere' });
  await expect(dialog).toContainText(person.email);
  await dialog.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText(`${person.email} is signed out everywhere (1 session ended)`)).toBeVisible();

  await personPage.goto('/settings/profile');
  await expect(personPage).toHaveURL(/\/login/);
  await personContext.close();
});
