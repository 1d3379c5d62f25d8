import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { linkIn, waitForMailTo } from '../support/mailbox.js';

/** Types `value` into the field, leaves it, and expects exactly `message` under it. */
async function expectMessageOnBlur(page: Page, field: Locator, value: string, message: string) {
  await field.fill(value);
  await field.blur();
  await expect(field).toHaveAccessibleDescription(message);
  await expect(field).toHaveAttribute('aria-invalid', 'true');
}

async function expectValidOnBlur(field: Locator, value: string) {
  await field.fill(value);
  await field.blur();
  await expect(field).toHaveAttribute('aria-invalid', 'false');
}

test('signup validates every field on blur with the AUTH-SIGNUP-2 and AUTH-VALID messages', async ({ page }) => {
  await page.goto('/signup');
  const fullName = page.getByLabel('Full Name');
  const email = page.getByLabel('Email');
  const password = page.getByRole('textbox', { name: 'Password', exact: true });
  const confirm = page.getByLabel('Confirm Password');

  // Nothing is judged before the person leaves a field.
  await fullName.fill('');
  await expect(fullName).toHaveAttribute('aria-invalid', 'false');

  await expectMessageOnBlur(page, fullName, '', 'Full Name is required');
  await expectMessageOnBlur(page, fullName, 'Al', 'Full Name must be at least 3 characters');
  await expectValidOnBlur(fullName, 'Alice Example');

  await expectMessageOnBlur(page, email, '', 'Email is required');
  await expectMessageOnBlur(page, email, 'not-an-email', 'Invalid email address');
  await expectValidOnBlur(email, 'alice@example.com');

  await expectMessageOnBlur(page, password, '', 'Password is required');
  await expectMessageOnBlur(page, password, 'short', 'Password must be at least 8 characters');
  await expect(page.getByTestId('strength-label')).toHaveText('Low');
  await expectValidOnBlur(password, 'abcdefgH');
  await expect(page.getByTestId('strength-label')).toHaveText('Medium');
  await expectValidOnBlur(password, 'abcdefgH1!');
  await expect(page.getByTestId('strength-label')).toHaveText('High');

  await expectMessageOnBlur(page, confirm, '', 'Password confirmation is required');
  await expectMessageOnBlur(page, confirm, 'something-else', 'The passwords do not match');
  await expectValidOnBlur(confirm, 'abcdefgH1!');
});

test('signup with a registered address reveals nothing and mails the owner instead', async ({
  page,
  createAccount,
}) => {
  const existing = await createAccount();
  await page.goto('/signup');
  await page.getByLabel('Full Name').fill('Second Person');
  await page.getByLabel('Email').fill(existing.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Another-Password-1');
  await page.getByLabel('Confirm Password').fill('Another-Password-1');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const mail = await waitForMailTo(existing.email);
  expect(linkIn(mail, '/recover-password')).toContain('/recover-password');
});

test('login validates the username and password on blur', async ({ page }) => {
  await page.goto('/login');
  const username = page.getByLabel('Email');
  const password = page.getByRole('textbox', { name: 'Password', exact: true });
  await expectMessageOnBlur(page, username, '', 'Username is required');
  await expectMessageOnBlur(page, username, 'alice', 'Invalid email address');
  await expectValidOnBlur(username, 'alice@example.com');
  await expectMessageOnBlur(page, password, '', 'Password is required');
  await expectMessageOnBlur(page, password, '1234567', 'Password must be at least 8 characters');
  await expectValidOnBlur(password, '12345678');
});

test('submitting an empty login form shows every message and calls nothing', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/')) calls.push(request.url());
  });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Username is required');
  await expect(page.getByRole('textbox', { name: 'Password', exact: true })).toHaveAccessibleDescription(
    'Password is required',
  );
  expect(calls).toEqual([]);
});

test('recover password validates the e-mail on blur', async ({ page }) => {
  await page.goto('/recover-password');
  const email = page.getByLabel('Email');
  await expectMessageOnBlur(page, email, '', 'Email is required');
  await expectMessageOnBlur(page, email, 'nobody@', 'Invalid email address');
  await expectValidOnBlur(email, 'nobody@example.com');
});

test('reset password validates both fields on blur and shows the strength meter', async ({ page }) => {
  await page.goto('/reset-password?token=made-up-token');
  const password = page.getByLabel('New Password');
  const confirm = page.getByLabel('Confirm Password');
  await expectMessageOnBlur(page, password, '', 'Password is required');
  await expectMessageOnBlur(page, password, 'tiny', 'Password must be at least 8 characters');
  await expectValidOnBlur(password, 'Longer-Password-9');
  await expect(page.getByRole('meter', { name: 'Password strength' })).toHaveAttribute('aria-valuetext', 'High');
  await expectMessageOnBlur(page, confirm, '', 'Password confirmation is required');
  await expectMessageOnBlur(page, confirm, 'Longer-Password-8', 'The passwords do not match');
  await expectValidOnBlur(confirm, 'Longer-Password-9');

  // The made-up token is refused by the server, and the page says so.
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid or expired token');
  await expect(page).toHaveURL(/\/reset-password/);
});
