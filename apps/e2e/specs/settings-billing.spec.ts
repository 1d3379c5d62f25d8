import type { Page } from '@playwright/test';
import { apiLogin, expect, test } from '../support/fixtures.js';
import { createPlan } from '../support/settings.js';

/** /settings billing through the real API and the sandbox provider: cards, plans, subscriptions, history. */

const CARDS = {
  visa: '4242 4242 4242 4242',
  mastercard: '5555 5555 5555 4444',
  declinedOnAttach: '4000 0000 0000 0002',
  chargeFails: '4000 0000 0000 0341',
};

async function addCard(page: Page, number: string, options: { makeDefault?: boolean } = {}) {
  await page.getByRole('button', { name: 'Add Payment Method' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Payment Method' });
  await dialog.getByLabel('Card number').fill(number);
  await dialog.getByLabel('Expiry (MM/YY)').fill('12/34');
  await dialog.getByLabel('CVC').fill('123');
  const checkbox = dialog.getByLabel('Make this my default payment method');
  if (options.makeDefault !== undefined) await checkbox.setChecked(options.makeDefault);
  await dialog.getByRole('button', { name: 'Add Card' }).click();
  return dialog;
}

function planCard(page: Page, name: string) {
  return page.getByRole('listitem', { name });
}

test('cards: the field checks like Stripe’s, a decline shows the provider’s reason, default and delete work', async ({
  page,
  user: _user,
}) => {
  await page.goto('/settings/payment-methods');
  await expect(page.getByText('No payment methods added yet.')).toBeVisible();

  // Checked in the browser before anything is sent: formatted as typed, brand shown, Luhn, expiry.
  await page.getByRole('button', { name: 'Add Payment Method' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Payment Method' });
  const number = dialog.getByLabel('Card number');
  await number.fill('4242424242424241');
  await expect(number).toHaveValue('4242 4242 4242 4241');
  await dialog.getByLabel('Expiry (MM/YY)').fill('0120');
  await expect(dialog.getByLabel('Expiry (MM/YY)')).toHaveValue('01 / 20');
  await dialog.getByLabel('CVC').fill('12');
  await dialog.getByRole('button', { name: 'Add Card' }).click();
  await expect(number).toHaveAccessibleDescription('Your card number is invalid.');
  await expect(dialog.getByLabel('Expiry (MM/YY)')).toHaveAccessibleDescription(
    "Your card's expiration date is in the past.",
  );
  await expect(dialog.getByLabel('CVC')).toHaveAccessibleDescription("Your card's security code is invalid.");
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Declined when saved: the provider's reason, and a way to try again.
  const declined = await addCard(page, CARDS.declinedOnAttach);
  await expect(declined.getByRole('alert')).toHaveText(/Failed to add payment method: Your card was declined\./);
  await expect(declined.getByRole('button', { name: 'Try again' })).toBeVisible();
  await declined.getByRole('button', { name: 'Cancel' }).click();

  // The first card is the default.
  await addCard(page, CARDS.visa);
  await expect(page.getByText('Payment method added successfully')).toBeVisible();
  const cards = page.getByRole('list', { name: 'Saved cards' }).getByRole('listitem');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('VISA');
  await expect(cards.first()).toContainText('•••• 4242');
  await expect(cards.first()).toContainText('Expires 12/34');
  await expect(cards.first()).toContainText('Default');

  await addCard(page, CARDS.mastercard, { makeDefault: false });
  const mastercard = cards.filter({ hasText: '•••• 4444' });
  await expect(mastercard).toContainText('MASTERCARD');
  await expect(mastercard.getByText('Default', { exact: true })).toHaveCount(0);
  await mastercard.getByRole('button', { name: 'Set as Default' }).click();
  await expect(mastercard.getByText('Default', { exact: true })).toBeVisible();
  await expect(cards.filter({ hasText: '•••• 4242' }).getByText('Default', { exact: true })).toHaveCount(0);

  await page.getByRole('button', { name: 'Delete card ending in 4242' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Payment Method' });
  await expect(confirm).toContainText('ending in 4242');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Payment method deleted successfully')).toBeVisible();
  await expect(cards).toHaveCount(1);
});

test('plans: sorted by price; subscribe, Current Plan, a billing row, then cancel at period end', async ({
  page,
  createAccount,
  signIn,
}) => {
  const cheap = await createPlan(page.request, { price: '9.50' });
  const annual = await createPlan(page.request, { price: '990', period: 'annual' });
  await signIn(page, await createAccount());

  // Without a card there is nothing to charge.
  await page.goto('/settings/plans');
  await planCard(page, cheap.name).getByRole('button', { name: 'Subscribe' }).click();
  const noCard = page.getByRole('dialog', { name: `Subscribe to ${cheap.name}` });
  await expect(noCard).toContainText('Please add a payment method first.');
  await noCard.getByRole('link', { name: 'Go to Payment Methods' }).click();
  await expect(page).toHaveURL(/\/settings\/payment-methods$/);
  await addCard(page, CARDS.visa);
  await expect(page.getByText('Payment method added successfully')).toBeVisible();

  await page.getByRole('tab', { name: 'Subscription Plans' }).click();
  await expect(planCard(page, cheap.name)).toContainText('$9.50 / month');
  await expect(planCard(page, annual.name)).toContainText('$990.00 / year');
  const prices = await page
    .getByRole('list', { name: 'Plans' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3 }) })
    .evaluateAll((items) =>
      items.map((item) => Number(/\$([\d,.]+) \//.exec(item.textContent ?? '')?.[1]?.replace(/,/g, '') ?? 'NaN')),
    );
  expect(prices).toEqual([...prices].sort((a, b) => a - b));

  await planCard(page, cheap.name).getByRole('button', { name: 'Subscribe' }).click();
  const subscribe = page.getByRole('dialog', { name: `Subscribe to ${cheap.name}` });
  await expect(subscribe.getByRole('radio', { name: /VISA •••• 4242/ })).toBeChecked();
  await subscribe.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByText(`You are now subscribed to ${cheap.name}`)).toBeVisible();
  await expect(planCard(page, cheap.name).getByText('Current Plan')).toBeVisible();

  await page.getByRole('tab', { name: 'Billing History' }).click();
  const row = page.getByRole('row').filter({ hasText: '$9.50' });
  await expect(row).toContainText('succeeded');
  await expect(row).toContainText(cheap.name);

  await page.getByRole('tab', { name: 'Subscription Plans' }).click();
  await planCard(page, cheap.name).getByRole('button', { name: 'Cancel Subscription' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel Subscription' })
    .getByRole('button', { name: 'Cancel Subscription' })
    .click();
  await expect(page.getByText(/Subscription cancelled\. It stays active until/)).toBeVisible();
  const current = planCard(page, cheap.name);
  await expect(current.getByText('Current Plan')).toBeVisible();
  await expect(current).toContainText(/stays active until [A-Z][a-z]{2} \d{1,2}, \d{4}/);
  await expect(current.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);
});

test('a card whose charges fail: the subscription is refused with the provider’s reason and a failed row', async ({
  page,
  createAccount,
  signIn,
}) => {
  const plan = await createPlan(page.request, { price: '19.00' });
  await signIn(page, await createAccount());
  await page.goto('/settings/payment-methods');
  await addCard(page, CARDS.chargeFails);
  await expect(page.getByText('Payment method added successfully')).toBeVisible();

  await page.getByRole('tab', { name: 'Subscription Plans' }).click();
  await planCard(page, plan.name).getByRole('button', { name: 'Subscribe' }).click();
  const dialog = page.getByRole('dialog', { name: `Subscribe to ${plan.name}` });
  await dialog.getByRole('button', { name: 'Subscribe' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(/^Failed to create subscription: Your card was declined\./);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(planCard(page, plan.name).getByText('Current Plan')).toHaveCount(0);

  await page.getByRole('tab', { name: 'Billing History' }).click();
  const row = page.getByRole('row').filter({ hasText: '$19.00' });
  await expect(row).toContainText('failed');
  await expect(row).toContainText('Your card was declined.');
});

test('a superuser adds, edits and deletes plans; one with subscribers can be deactivated instead', async ({
  page,
  request,
  admin: _admin,
  createAccount,
}) => {
  await page.goto('/settings/plans');
  await page.getByRole('button', { name: 'Add Plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Plan' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByLabel('Name')).toHaveAccessibleDescription('Plan name is required');
  await expect(dialog.getByLabel('Description')).toHaveAccessibleDescription('Plan description is required');
  await expect(dialog.getByLabel('Price')).toHaveAccessibleDescription('Price is required');
  await expect(dialog.getByLabel('Features (one per line)')).toHaveAccessibleDescription(
    'At least one feature is required',
  );
  await dialog.getByLabel('Price').fill('12,50');
  await dialog.getByLabel('Price').blur();
  await expect(dialog.getByLabel('Price')).toHaveAccessibleDescription(
    'Price must be digits with an optional decimal point, like 49 or 49.99',
  );

  const name = `Team ${Date.now()}`;
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Description').fill('For small teams');
  await dialog.getByLabel('Price').fill('29.99');
  await dialog.getByLabel('Billing period').selectOption('annual');
  await dialog.getByLabel('Features (one per line)').fill('Ten seats\n\n  Shared dashboards  \n');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Plan created successfully')).toBeVisible();
  const card = planCard(page, name);
  await expect(card).toContainText('$29.99 / year');
  await expect(card.getByRole('listitem')).toHaveText(['Ten seats', 'Shared dashboards']);

  await card.getByRole('button', { name: `Edit plan ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Plan' });
  await expect(edit.getByLabel('Price')).toHaveValue('29.99');
  await edit.getByLabel('Price').fill('39');
  await edit.getByLabel('Status').selectOption('inactive');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Plan updated successfully')).toBeVisible();
  await expect(card).toContainText('$39.00 / year');
  await expect(card.getByText('Inactive')).toBeVisible();

  await card.getByRole('button', { name: `Delete plan ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Plan' });
  await expect(confirm).toContainText(`Are you sure you want to delete the plan "${name}"?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Plan deleted successfully')).toBeVisible();
  await expect(card).toHaveCount(0);

  // A plan someone pays for: the server refuses, the dialog offers to deactivate it.
  const busy = await createPlan(request, { price: '5.00' });
  const subscriber = await createAccount();
  const token = await apiLogin(request, subscriber.email, subscriber.password);
  const headers = { authorization: `Bearer ${token}` };
  const pm = await request.post('/api/v1/subscriptions/sandbox/payment-methods', {
    headers,
    data: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' },
  });
  const { id: providerId } = (await pm.json()) as { id: string };
  const saved = await request.post('/api/v1/subscriptions/payment-methods', {
    headers,
    data: { provider_payment_method_id: providerId, is_default: true },
  });
  const { id: methodId } = (await saved.json()) as { id: string };
  const subscribed = await request.post(`/api/v1/subscriptions/subscribe/${busy.id}`, {
    headers,
    data: { payment_method_id: methodId },
  });
  expect(subscribed.status(), await subscribed.text()).toBeLessThan(300);

  await page.reload();
  await planCard(page, busy.name)
    .getByRole('button', { name: `Delete plan ${busy.name}` })
    .click();
  const refuse = page.getByRole('dialog', { name: 'Delete Plan' });
  await refuse.getByRole('button', { name: 'Delete' }).click();
  await expect(refuse.getByRole('alert')).toContainText('This plan has active subscriptions and cannot be deleted.');
  await refuse.getByRole('button', { name: 'Deactivate instead' }).click();
  await expect(page.getByText('Plan deactivated')).toBeVisible();
  await expect(planCard(page, busy.name).getByText('Inactive')).toBeVisible();
});
