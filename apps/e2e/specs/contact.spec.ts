import type { Page } from '@playwright/test';
import { expect, test, uniqueEmail } from '../support/fixtures.js';

const SUCCESS = "Thank you for your message. We'll get back to you soon!";
const FAILURE = 'Failed to send message. Please try again later.';

async function fillValidForm(page: Page, email: string) {
  await page.getByLabel('Name').fill('Casey Contact');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Company').fill('Acme Health');
  await page.getByLabel('Phone').fill('+1 555 0100');
  await page.getByLabel('Subject').fill('Pricing for Studio');
  await page.getByLabel('Message').fill('We would like a demo of Studio for our analytics team.');
}

test('the contact form validates on blur with the CONTACT-VALID-1 messages', async ({ page }) => {
  await page.goto('/contact');
  await expect(page.getByRole('heading', { name: 'Contact Us' })).toBeVisible();
  const cases = [
    ['Name', 'A', 'Name must be at least 2 characters'],
    ['Email', 'casey@', 'Invalid email address'],
    ['Subject', 'Hi', 'Subject must be at least 5 characters'],
    ['Message', 'Too short', 'Message must be at least 10 characters'],
  ] as const;
  for (const [label, value, message] of cases) {
    const field = page.getByLabel(label);
    await field.fill(value);
    await field.blur();
    await expect(field, label).toHaveAccessibleDescription(message);
  }
  // Company and phone are optional.
  for (const label of ['Company', 'Phone']) {
    const field = page.getByLabel(label);
    await field.fill('');
    await field.blur();
    await expect(field, label).toHaveAttribute('aria-invalid', 'false');
  }
  await expect(page.getByLabel('Message')).toHaveAttribute('rows', '4');
});

test('a sent message shows the thanks, resets the form, and the snackbar hides after 6 s', async ({ page }) => {
  await page.goto('/contact');
  await fillValidForm(page, uniqueEmail('contact'));

  // Hold the request until the pending state has been seen, then let it reach the real server.
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/contact/', async (route) => {
    await released;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Send Message' }).click();
  const sending = page.getByRole('button', { name: 'Sending...' });
  await expect(sending).toBeVisible();
  await expect(sending).toBeDisabled();
  await expect(sending.getByRole('progressbar')).toBeVisible();
  const answer = page.waitForResponse('**/api/v1/contact/');
  release();
  expect((await answer).status()).toBe(201);

  const snackbar = page.getByText(SUCCESS);
  await expect(snackbar).toBeVisible();
  for (const label of ['Name', 'Email', 'Company', 'Phone', 'Subject', 'Message']) {
    await expect(page.getByLabel(label), label).toHaveValue('');
  }
  await expect(page.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  await expect(snackbar).toBeHidden({ timeout: 9_000 });
});

test('when the server cannot be reached the failure text shows and the form keeps its values', async ({ page }) => {
  await page.goto('/contact');
  const email = uniqueEmail('contact');
  await fillValidForm(page, email);
  await page.route('**/api/v1/contact/', (route) => route.abort('connectionrefused'));
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText(FAILURE)).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByRole('button', { name: 'Send Message' })).toBeEnabled();
});
