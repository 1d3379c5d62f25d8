import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { expect, expectNoSeriousA11yViolations, LONG_WALK_TIMEOUT_MS, test } from '../support/fixtures.js';

/**
 * Two-factor sign-in end to end (TOTP-ENROL-1, TOTP-LOGIN-3, TOTP-RECOVERY-1): enrol from the
 * Security tab with the key read off the page, then log in with password and code, and with a
 * recovery code; axe on the Security tab and the code step in both themes, screenshots at 390 and
 * 1280 px.
 */

const SHOTS_DIR = process.env.E2E_SHOTS_DIR ?? '/tmp/shots';

/** The code an authenticator app shows `offsetSeconds` from now (the server accepts one step either side). */
function codeFor(secret: string, offsetSeconds = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });
}

/** axe in both themes, and a screenshot at each width, of the screen as it stands. */
async function checkScreen(page: Page, name: string) {
  mkdirSync(SHOTS_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${scheme}\\b`));
    await expectNoSeriousA11yViolations(page, `${name} (${scheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(SHOTS_DIR, `two-factor-${name}-${width}.png`), fullPage: true });
  }
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

async function passwordStep(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
}

test('enable two-factor sign-in, then log in with a code and with a recovery code', async ({
  page,
  createAccount,
  signIn,
}) => {
  test.setTimeout(LONG_WALK_TIMEOUT_MS);
  const account = await createAccount();
  await signIn(page, account);

  await page.goto('/settings/security');
  await expect(page.getByRole('tab', { name: 'Security' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('Off.')).toBeVisible();
  await checkScreen(page, 'security-off');

  await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
  await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('two-factor-key').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await checkScreen(page, 'security-setup');

  await page.getByLabel('Authentication code').fill('12345');
  await page.getByRole('button', { name: 'Turn on', exact: true }).click();
  await expect(page.getByLabel('Authentication code')).toHaveAccessibleDescription(
    'Enter the 6-digit code from your authenticator app',
  );
  await page.getByLabel('Authentication code').fill(await codeFor(secret));
  await page.getByRole('button', { name: 'Turn on', exact: true }).click();
  const codesList = page.getByRole('list', { name: 'Recovery codes' });
  await expect(codesList.getByRole('listitem')).toHaveCount(10);
  const recoveryCodes = await codesList.getByRole('listitem').allInnerTexts();
  await expect(page.getByRole('button', { name: 'Download codes' })).toBeVisible();
  await checkScreen(page, 'security-recovery-codes');
  await page.getByRole('button', { name: 'I have saved my codes' }).click();
  await expect(page.getByText('Recovery codes left: 10')).toBeVisible();
  await checkScreen(page, 'security-on');

  // Password, then the code: the next time step's code, since the enrolment used this one.
  await logOut(page);
  await passwordStep(page, account.email, account.password);
  await checkScreen(page, 'code-step');
  const wrong = (await codeFor(secret, 30)) === '000000' ? '111111' : '000000';
  await page.getByLabel('Authentication code').fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByLabel('Authentication code')).toHaveAccessibleDescription('Invalid authentication code');
  await page.getByLabel('Authentication code').fill(await codeFor(secret, 30));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/studio$/);

  // Password, then a recovery code.
  await logOut(page);
  await passwordStep(page, account.email, account.password);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await expect(page.getByLabel('Recovery code')).toBeVisible();
  await checkScreen(page, 'recovery-step');
  await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/studio$/);

  await page.goto('/settings/security');
  await expect(page.getByText('Recovery codes left: 9')).toBeVisible();
});
