import {
  documentationAddress,
  expect,
  expectNoSeriousA11yViolations,
  signUpAndLogIn,
  test,
  uniqueEmail,
} from '../support/fixtures.js';
import { linkIn, waitForMailTo } from '../support/mailbox.js';

/** Verified e-mail addresses (decision 029): sign-up to a verified account through the mailed link. */

// A browser of its own address: sign-ups are limited per address, and the suite signs up often.
test.use({ extraHTTPHeaders: { 'x-forwarded-for': documentationAddress() } });

const BANNER_TEXT = /Verify your e-mail address to subscribe to a plan and download files/;

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`in the ${scheme} theme`, () => {
    test.use({ colorScheme: scheme });

    test('signs up, asks for a new link from the banner, and verifies through the mailed link', async ({ page }) => {
      const email = uniqueEmail('verify');
      await signUpAndLogIn(page, { fullName: 'Vera Fication', email, password: 'Verify-Me-Please-42' });
      const welcome = await waitForMailTo(email);
      expect(welcome.subject).toBe('Welcome to Data Platform');

      await page.goto('/settings/profile');
      const banner = page.getByRole('alert').filter({ hasText: BANNER_TEXT });
      await expect(banner).toBeVisible();
      await expect(page.getByText('(not verified)')).toBeVisible();
      await expectNoSeriousA11yViolations(page, `settings with the verification banner (${scheme})`);

      // A new link: the welcome's link dies with it.
      await page.getByRole('button', { name: 'Resend verification e-mail' }).click();
      await expect(page.getByText('Verification e-mail sent. Follow the link in it within 24 hours.')).toBeVisible();
      await expect
        .poll(async () => (await waitForMailTo(email)).subject)
        .toBe('Data Platform - Verify your e-mail address');
      const link = linkIn(await waitForMailTo(email), '/verify-email');

      await page.goto(linkIn(welcome, '/verify-email'));
      await expect(page.getByRole('alert')).toHaveText(
        'This verification link is invalid, was already used or has expired',
      );
      await expectNoSeriousA11yViolations(page, `a dead verification link (${scheme})`);

      await page.goto(link);
      await expect(page.getByText('Your e-mail address is verified')).toBeVisible();
      // The token does not stay in the address bar or its history.
      await expect(page).toHaveURL(/\/verify-email$/);
      await expectNoSeriousA11yViolations(page, `a followed verification link (${scheme})`);

      await page.getByRole('link', { name: 'Go to your settings' }).click();
      await expect(page).toHaveURL(/\/settings\/profile$/);
      await expect(page.getByText(email)).toBeVisible();
      await expect(page.getByText(BANNER_TEXT)).toHaveCount(0);
      await expect(page.getByText('(not verified)')).toHaveCount(0);
    });
  });
}
