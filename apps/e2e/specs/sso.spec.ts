import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { SHOTS_DIR } from '../support/admin.js';
import { expect, expectNoSeriousA11yViolations, LONG_WALK_TIMEOUT_MS, test } from '../support/fixtures.js';
// The server tests' provider, by path: Playwright compiles TypeScript outside node_modules only.
import { startOidcProvider, type TestOidcProvider } from '../../server/test/oidc-provider.js';

/**
 * Single sign-on (SSO-2 to SSO-5) through a real OpenID provider on loopback and its own login page;
 * axe on the Single Sign-On admin tab and the SSO part of the login screen, in both themes.
 */

let provider: TestOidcProvider;

test.beforeAll(async () => {
  provider = await startOidcProvider({ redirectUris: [`${process.env.E2E_BASE_URL}/api/v1/sso/callback`] });
});
test.afterAll(async () => {
  await provider.close();
});

function freshDomain(): string {
  return `sso-${randomUUID().slice(0, 8)}.example`;
}

async function createConnection(request: APIRequestContext, adminToken: string, domain: string) {
  const response = await request.post('/api/v1/sso/connections', {
    headers: { authorization: `Bearer ${adminToken}` },
    data: {
      name: `Acme ${domain}`,
      issuer: provider.issuer,
      client_id: provider.clientId,
      client_secret: provider.clientSecret,
      domains: [domain],
    },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string; name: string };
}

/** From the login page to the provider's login page, signing in there as `accountId`. */
async function signInWithSso(page: Page, email: string, accountId: string) {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with SSO' }).click();
  await page.getByLabel('Work email').fill(email);
  await page.getByRole('button', { name: 'Continue with SSO' }).click();
  // The provider's own development login page.
  await page.waitForURL((url) => url.href.startsWith(provider.issuer));
  await page.locator('input[name="login"]').fill(accountId);
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

test('SSO-4 a first sign-in through the provider login page ends signed in, with no token in any address', async ({
  page,
  request,
  adminToken,
}) => {
  const domain = freshDomain();
  await createConnection(request, adminToken, domain);
  const email = `grace@${domain}`;
  provider.accounts.set('grace', { email, email_verified: true, name: 'Grace Hopper' });
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });

  await signInWithSso(page, email, 'grace');
  await page.waitForURL((url) => url.pathname === '/studio');
  const token = await page.evaluate(() => localStorage.getItem('access_token'));
  expect(token).toBeTruthy();
  for (const address of visited) expect(address).not.toContain(token!);

  await page.goto('/settings/profile');
  await expect(page.getByText(email)).toBeVisible();
});

test('SSO-5 an existing password account is linked only after its password', async ({ page, request, adminToken }) => {
  const domain = freshDomain();
  await createConnection(request, adminToken, domain);
  const email = `linus@${domain}`;
  const password = `pw-${randomUUID()}`;
  const created = await request.post('/api/v1/users/', {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { email, password, full_name: 'Linus Link', is_active: true, is_superuser: false },
  });
  expect(created.status()).toBe(201);
  provider.accounts.set('linus', { email, email_verified: true });

  await signInWithSso(page, email, 'linus');
  await expect(page.getByRole('heading', { name: 'Link Your Account' })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === '/login/sso' && url.hash === '');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Link and Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Incorrect password');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Link and Sign In' }).click();
  await page.waitForURL((url) => url.pathname === '/studio');
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeTruthy();
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`in the ${scheme} theme`, () => {
    test.use({ colorScheme: scheme });

    test(`axe finds no serious violation on the Single Sign-On tab, its dialog and the SSO login part (${scheme})`, async ({
      page,
      request,
      adminToken,
      createAccount,
      signIn,
    }) => {
      test.setTimeout(LONG_WALK_TIMEOUT_MS);
      const domain = freshDomain();
      const connection = await createConnection(request, adminToken, domain);
      const admin = await createAccount({ isSuperuser: true });

      // The SSO part of the login screen (signed out), and the page the provider sends people back to.
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/login');
        await page.getByRole('button', { name: 'Sign in with SSO' }).click();
        await page.getByLabel('Work email').fill('someone@unknown-domain.example');
        await page.getByRole('button', { name: 'Continue with SSO' }).click();
        await expect(page.getByRole('alert')).toHaveText('Single sign-on is not set up for this e-mail address');
        await expectNoSeriousA11yViolations(page, `login SSO part (${scheme}, ${width} px)`);
        await page.screenshot({ path: `${SHOTS_DIR}/sso-login-${scheme}-${width}.png`, fullPage: true });

        await page.goto('/login/sso#error=email_unverified');
        await expect(page.getByRole('alert')).toHaveText(
          'Your identity provider has not verified your e-mail address.',
        );
        await expect(page).toHaveURL((url) => url.hash === '');
        await expectNoSeriousA11yViolations(page, `/login/sso error (${scheme}, ${width} px)`);
      }

      await signIn(page, admin);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/admin/sso');
        await expect(page.getByRole('tab', { name: 'Single Sign-On' })).toHaveAttribute('aria-selected', 'true');
        await expect(page.getByRole('cell', { name: connection.name }).first()).toBeVisible();
        await expectNoSeriousA11yViolations(page, `/admin/sso (${scheme}, ${width} px)`);
        await page.screenshot({ path: `${SHOTS_DIR}/sso-admin-${scheme}-${width}.png`, fullPage: true });

        await page.getByRole('button', { name: 'Add Connection' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add Single Sign-On Connection' });
        await expect(dialog.getByLabel('Client secret')).toHaveAttribute('type', 'password');
        await expectNoSeriousA11yViolations(page, `Add connection dialog (${scheme}, ${width} px)`);
        await page.screenshot({ path: `${SHOTS_DIR}/sso-dialog-${scheme}-${width}.png` });
        await dialog.getByRole('button', { name: 'Cancel' }).click();
      }
    });
  });
}

test('a superuser adds a connection in the admin tab; the secret is never shown back', async ({
  page,
  createAccount,
  signIn,
}) => {
  await signIn(page, await createAccount({ isSuperuser: true }));
  await page.goto('/admin/sso');
  await page.getByRole('button', { name: 'Add Connection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Single Sign-On Connection' });
  const domain = freshDomain();
  await dialog.getByLabel('Name').fill(`Added ${domain}`);
  await dialog.getByLabel('Issuer URL').fill(provider.issuer);
  await dialog.getByLabel('Client ID').fill('some-client');
  await dialog.getByLabel('Client secret').fill('a-very-secret-value');
  await dialog.getByLabel('Allowed e-mail domains').fill(domain);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: `Added ${domain}` });
  await expect(row).toContainText(domain);
  await row.getByRole('button', { name: `Edit connection Added ${domain}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Single Sign-On Connection' });
  await expect(edit.getByLabel('Client secret')).toHaveValue('');
  await expect(page.locator('body')).not.toContainText('a-very-secret-value');
});
