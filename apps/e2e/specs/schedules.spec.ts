import { createReport, expect, openReport, screenshot, test, uniqueTag, type Named } from '../support/admin.js';
import { apiLogin, expectNoSeriousA11yViolations, LONG_WALK_TIMEOUT_MS } from '../support/fixtures.js';
import { waitForMailTo } from '../support/mailbox.js';

/** Issue 59: a report mailed on a schedule, made in the report's Schedules tab, moved on by the sandbox clock. */

const definition = (title: string) => `title: ${title}
source: demo
blocks:
  - id: rows
    title: Rates counted
    kpi: { sql: "SELECT count(*) AS n FROM rates", value: n, format: integer }
  - id: chart
    title: Rates by payer chart
    chart:
      sql: "SELECT payer, count(*) AS n FROM rates GROUP BY payer"
      spec: { mark: bar, encoding: { x: { field: payer, type: nominal }, y: { field: n, type: quantitative } } }
  - id: by_payer
    title: Rates by payer
    table: { sql: "SELECT payer, count(*) AS n FROM rates GROUP BY payer ORDER BY payer", page_size: 5 }
`;

test('an author schedules a report in the Schedules tab; the sandbox clock moves it and the mail carries the CSV and the chart', async ({
  page,
  request,
  api,
  user: author,
}) => {
  test.setTimeout(LONG_WALK_TIMEOUT_MS);
  await api.grant(author.id, ['reports:write']);
  const tenant = await api.send<Named>('POST', '/tenants/', { name: uniqueTag('Schedules '), status: 'active' });
  await api.send('PUT', `/tenants/${tenant.id}/members`, [author.id]);
  const token = await apiLogin(request, author.email, author.password);
  const title = `Scheduled ${uniqueTag('r')}`;
  const report = await createReport(request, token, tenant.id, definition(title));
  const reader = `${uniqueTag('reader')}@example.com`.toLowerCase();

  await openReport(page, tenant.id, report.slug, title);
  await page.getByRole('button', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: `Share “${title}”` });
  await dialog.getByRole('tab', { name: 'Schedules' }).click();
  await expect(dialog.getByText('No schedules yet: add one below')).toBeVisible();

  // A bad zone is said in words, and nothing is saved.
  await dialog.getByRole('textbox', { name: 'Time zone' }).fill('Mars/Olympus');
  await dialog.getByRole('textbox', { name: 'Addresses' }).fill(reader);
  await dialog.getByRole('button', { name: 'Add schedule' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Name a time zone of the IANA database');

  await dialog.getByRole('textbox', { name: 'Time zone' }).fill('Europe/Paris');
  await dialog.getByRole('combobox', { name: 'How often' }).selectOption({ label: 'Every day' });
  await dialog.getByRole('button', { name: 'Add schedule' }).click();
  await expect(dialog.getByRole('status').last()).toHaveText('Saved: the schedule is listed above.');
  const list = dialog.getByRole('list', { name: 'Schedules' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText('Mailed every day at 08:00 (Europe/Paris)');
  await expect(list).toContainText(reader);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousA11yViolations(page, `schedules tab, ${scheme}`);
    await screenshot(page, `schedules-tab-${scheme}`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(list).toContainText('Mailed every day');
  await expectNoSeriousA11yViolations(page, 'schedules tab, 390 px');
  await screenshot(page, 'schedules-tab-390');

  // Pausing and resuming from the keyboard.
  await list.getByRole('button', { name: 'Pause' }).focus();
  await page.keyboard.press('Enter');
  await expect(list).toContainText('Paused');
  await list.getByRole('button', { name: 'Resume' }).click();
  await expect(list.getByRole('button', { name: 'Pause' })).toBeVisible();

  // Two days on the author's sandbox clock: the report is mailed once, with its CSV and its chart.
  await api.send('POST', '/subscriptions/sandbox/advance', { user_id: author.id, seconds: 2 * 86_400 });
  const mail = await waitForMailTo(reader, 30_000);
  expect(mail.subject).toBe(`${title} — scheduled report`);
  expect(mail.text).toMatch(/Rates counted: [\d,]+/);
  const files = mail.attachments ?? [];
  expect(files.find((file) => file.contentType.startsWith('text/csv'))?.filename).toBe(`${report.slug}-by_payer.csv`);
  const png = files.find((file) => file.contentType === 'image/png');
  expect(png?.cid).toBe('chart-chart@report');
  expect(png!.size).toBeGreaterThan(1000);
});
