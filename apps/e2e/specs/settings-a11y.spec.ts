import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, LONG_WALK_TIMEOUT_MS, test } from '../support/fixtures.js';
import { createPlan, grantDownload, subscribeThroughApi } from '../support/settings.js';

/**
 * axe on every tab of /settings and its dialogs, in both themes, on a wide and a narrow screen, with
 * lists that have rows (a saved card, a current plan, a billing row, a download).
 */

const WIDTHS = [1280, 390] as const;

/** Nothing on the page scrolls sideways: a narrow screen works as a wide one does. */
async function expectNoSidewaysScroll(page: Page, label: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${label} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`in the ${scheme} theme`, () => {
    test.use({ colorScheme: scheme });

    for (const width of WIDTHS) {
      test(`axe finds no serious or critical violation on any settings tab or dialog at ${width} px`, async ({
        page,
        request,
        user: account,
      }) => {
        test.setTimeout(LONG_WALK_TIMEOUT_MS);
        const plan = await createPlan(request, { price: '12' });
        await subscribeThroughApi(request, account, plan);
        const download = await grantDownload(request, account, 'a,b\n1,2\n');
        await page.setViewportSize({ width, height: 900 });

        const tabs = [
          ['/settings/profile', 'My profile', page.getByRole('button', { name: 'Edit' })],
          ['/settings/plans', 'Subscription Plans', page.getByText('Current Plan').first()],
          ['/settings/payment-methods', 'Payment Methods', page.getByText('•••• 4242')],
          ['/settings/billing-history', 'Billing History', page.getByRole('cell', { name: '$12.00' }).first()],
          ['/settings/password', 'Password', page.getByLabel('Current Password')],
          ['/settings/download', 'Download', page.getByRole('button', { name: download.file.replaceAll('_', ' ') })],
          ['/settings/danger-zone', 'Danger zone', page.getByRole('button', { name: 'Delete' })],
        ] as const;
        for (const [path, tab, ready] of tabs) {
          await page.goto(path);
          await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
          await expect(ready).toBeVisible();
          // And enabled: the danger zone's button is in the prerendered frame, disabled until the app has
          // hydrated it; axe must not run while the app turns it on (its colour changing mid-check).
          await expect(ready).toBeEnabled();
          await expectNoSeriousA11yViolations(page, `${path} (${scheme}, ${width} px)`);
          await expectNoSidewaysScroll(page, path);
        }

        // The dialogs, open.
        await page.goto('/settings/payment-methods');
        await page.getByRole('button', { name: 'Add Payment Method' }).click();
        const cardDialog = page.getByRole('dialog', { name: 'Add Payment Method' });
        await expect(cardDialog.getByLabel('Expiry (MM/YY)')).toBeVisible();
        await cardDialog.getByRole('button', { name: 'Add Card' }).click();
        await expect(cardDialog.getByLabel('Card number')).toHaveAccessibleDescription('Your card number is invalid.');
        await expectNoSeriousA11yViolations(page, `Add Payment Method with errors (${scheme}, ${width} px)`);
        await cardDialog.getByRole('button', { name: 'Cancel' }).click();

        await page.goto('/settings/danger-zone');
        await page.getByRole('button', { name: 'Delete' }).click();
        await expect(page.getByRole('dialog', { name: 'Confirmation Required' })).toBeVisible();
        await expectNoSeriousA11yViolations(page, `Confirmation Required (${scheme}, ${width} px)`);
      });
    }

    test(`axe finds no serious or critical violation on a superuser's plan dialogs (${scheme})`, async ({
      page,
      request,
      createAccount,
      signIn,
    }) => {
      const plan = await createPlan(request, { price: '15' });
      await signIn(page, await createAccount({ isSuperuser: true }));
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/settings/plans');
        await page.getByRole('button', { name: 'Add Plan' }).click();
        const dialog = page.getByRole('dialog');
        await expect(dialog.getByLabel('Name')).toBeVisible();
        await expectNoSeriousA11yViolations(page, `plan dialog (${scheme}, ${width} px)`);
        await dialog.getByRole('button', { name: 'Cancel' }).click();

        await page.getByRole('button', { name: `Delete plan ${plan.name}` }).click();
        await expect(page.getByRole('dialog')).toContainText(plan.name);
        await expectNoSeriousA11yViolations(page, `delete plan dialog (${scheme}, ${width} px)`);
        await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      }
    });
  });
}
