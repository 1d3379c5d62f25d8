import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import {
  apiLogin,
  expect,
  expectNoSeriousA11yViolations,
  LONG_WALK_TIMEOUT_MS,
  test,
  uniqueEmail,
} from '../support/fixtures.js';

/** The contact inbox and the audit log of /admin (ADM-INBOX-1, ADM-AUDIT-1: beyond the product specification), as a superuser uses them. */

async function openTab(page: Page, name: RegExp | string) {
  await page.getByRole('tab', { name }).click();
}

test('a message sent through /contact arrives in the inbox, opens whole and changes status', async ({
  page,
  request,
  createAccount,
  signIn,
}) => {
  const admin = await createAccount({ isSuperuser: true });
  const subject = `Demo request ${randomUUID().slice(0, 8)}`;
  const message = 'We would like a demo of Studio for our analytics team.\nTwo lines, kept as written.';

  // Sent the way a visitor sends it.
  await page.goto('/contact');
  await page.getByLabel('Name').fill('Casey Contact');
  await page.getByLabel('Email').fill(uniqueEmail('casey'));
  await page.getByLabel('Company').fill('Acme Health');
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Message').fill(message);
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText("Thank you for your message. We'll get back to you soon!")).toBeVisible();

  await signIn(page, admin);
  await page.goto('/admin/contacts');
  await expect(page.getByRole('tab', { name: /^Contacts \d+ unread$/ })).toHaveAttribute('aria-selected', 'true');
  const row = page.getByRole('row').filter({ hasText: subject });
  await expect(row).toContainText('Casey Contact');
  await expect(row).toContainText('New');

  await row.click();
  const dialog = page.getByRole('dialog', { name: subject });
  await expect(dialog).toContainText('Two lines, kept as written.');
  await expect(dialog).toContainText('Acme Health');
  // Opening a new message marks it read.
  await expect(dialog.getByText('Read', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Mark as replied' }).click();
  await expect(page.getByText('Message marked as replied')).toBeVisible();
  await expect(dialog.getByText('Replied', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(row).toContainText('Replied');

  // The status filter narrows the list; the saved status reads back through the API.
  await page.getByLabel('Status', { exact: true }).selectOption('Archived');
  await expect(page.getByRole('row').filter({ hasText: subject })).toHaveCount(0);
  await page.getByLabel('Status', { exact: true }).selectOption('Replied');
  await expect(page.getByRole('row').filter({ hasText: subject })).toHaveCount(1);

  const token = await apiLogin(request, admin.email, admin.password);
  const listed = await request.get('/api/v1/contact/?status=replied&limit=1000', {
    headers: { authorization: `Bearer ${token}` },
  });
  const { data } = (await listed.json()) as { data: { subject: string; status: string }[] };
  expect(data.find((item) => item.subject === subject)?.status).toBe('replied');
});

test('the audit log shows the changes just made, by actor, with before and after and no secrets', async ({
  page,
  request,
  admin,
}) => {
  const token = await apiLogin(request, admin.email, admin.password);
  const headers = { authorization: `Bearer ${token}` };
  const roleName = `auditor_${randomUUID().slice(0, 8)}`;

  const created = await request.post('/api/v1/authorization/roles', { headers, data: { name: roleName } });
  expect(created.status()).toBe(201);
  const role = (await created.json()) as { id: string };
  const renamed = await request.put(`/api/v1/authorization/roles/${role.id}`, {
    headers,
    data: { name: `${roleName}_v2`, description: 'Reads the audit log' },
  });
  expect(renamed.status()).toBe(200);
  const secret = `pw-${randomUUID()}`;
  const tenant = await request.post('/api/v1/tenants/', {
    headers,
    data: {
      name: `Audit tenant ${randomUUID().slice(0, 8)}`,
      status: 'active',
      dburl: `postgresql://reporter:${secret}@db.example.com:5432/reports`,
    },
  });
  expect(tenant.status()).toBe(201);

  await page.goto('/admin/audit-log');
  await expect(page.getByRole('tab', { name: 'Audit Log' })).toHaveAttribute('aria-selected', 'true');

  // Only this actor's changes, then only role updates.
  await page
    .getByRole('row')
    .filter({ hasText: 'role.update' })
    .first()
    .getByRole('button', { name: admin.email })
    .click();
  await expect(page.getByText(`Actor: ${admin.email}`)).toBeVisible();
  // The filter does not open the row's detail as well.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('1–3 of 3')).toBeVisible();
  await page.getByLabel('Action', { exact: true }).selectOption('role.update');
  await expect(page.getByText('1–1 of 1')).toBeVisible();

  // The target is named by its values, its id kept for the detail.
  await page
    .getByRole('row')
    .filter({ hasText: `role ${roleName}_v2` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'role.update' });
  await expect(dialog).toContainText(role.id);
  const nameRow = dialog.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^name/ }) });
  await expect(nameRow).toContainText(roleName);
  await expect(nameRow).toContainText(`${roleName}_v2`);
  await expect(nameRow).toContainText('(changed)');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The tenant's entry shows the masked URL; the password appears nowhere on the page.
  await page.getByLabel('Action', { exact: true }).selectOption('tenant.create');
  await page.getByRole('row').filter({ hasText: 'tenant.create' }).click();
  await expect(page.getByRole('dialog', { name: 'tenant.create' })).toContainText('db.example.com');
  expect(await page.content()).not.toContain(secret);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on the inbox and the audit log (${scheme})`, async ({
    page,
    request,
    admin,
  }) => {
    test.setTimeout(LONG_WALK_TIMEOUT_MS);
    const token = await apiLogin(request, admin.email, admin.password);
    const role = await request.post('/api/v1/authorization/roles', {
      headers: { authorization: `Bearer ${token}` },
      data: { name: `axe_${randomUUID().slice(0, 8)}` },
    });
    expect(role.status()).toBe(201);
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/admin/contacts');
      await expect(page.getByRole('table', { name: 'Contact messages' })).toBeVisible();
      await expect(page.getByText('Loading messages...')).toHaveCount(0);
      await expectNoSeriousA11yViolations(page, `contacts ${width} (${scheme})`);

      await openTab(page, 'Audit Log');
      await expect(page.getByRole('table', { name: 'Audit log' }).getByText('role.create').first()).toBeVisible();
      await expectNoSeriousA11yViolations(page, `audit log ${width} (${scheme})`);
      await page.getByRole('row').filter({ hasText: 'role.create' }).first().click();
      await expect(page.getByRole('dialog', { name: 'role.create' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `audit entry ${width} (${scheme})`);
      await page.screenshot({ path: `/tmp/shots/audit-${width}-${scheme}.png`, fullPage: true });
      await page.keyboard.press('Escape');
    }
  });
}
