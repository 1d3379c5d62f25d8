import { createReport, expect, test as base, uniqueTag, type Named } from '../support/admin.js';
import { arrangeAsker, askOnPage, byPayer, script, scripted, shoot } from '../support/agent.js';
import { expectNoSeriousA11yViolations, LONG_WALK_TIMEOUT_MS, type TestAccount } from '../support/fixtures.js';

/*
 * The Agent (issue 57): /Agent and the editor's "Ask the agent", against the scripted
 * OpenAI-compatible server the suite starts (support/scripted-model.ts). Each test scripts replies
 * for a marker word its questions hold, so specs running side by side never take each other's.
 */

interface AgentFixtures {
  /** A fresh person who may ask and write reports, signed in on `page` in a fresh tenant of theirs (selected). */
  asker: { account: TestAccount; tenant: Named; token: string };
}

/**
 * The agent spec's `test`: the admin fixtures, and `asker`, the person every test asks as; it is
 * arranged before each test (auto) whether the test names it or not.
 */
const test = base.extend<AgentFixtures>({
  asker: [
    async ({ page, request, api, createAccount, signIn }, use) => {
      const account = await createAccount();
      await signIn(page, account);
      await use({ account, ...(await arrangeAsker(page, api, request, account)) });
    },
    { auto: true },
  ],
});

test('a plan answer streams in, is drawn as a chart, is added to a new report and followed up', async ({ page }) => {
  test.setTimeout(LONG_WALK_TIMEOUT_MS);
  const marker = uniqueTag('chart');
  const title = `Median rate by payer ${marker}`;
  await script(
    marker,
    { content: byPayer(title), chunk: 12, chunkDelayMs: 30 },
    { content: { kind: 'reply', text: 'Payers are the insurers that negotiated each rate.' } },
  );

  await page.goto('/Agent');
  await expect(page.getByRole('heading', { level: 1, name: 'Agent' })).toBeVisible();
  await askOnPage(page, `median negotiated rate by payer ${marker}`);
  // The model's text shows as it streams, then the checked answer replaces it.
  await expect(page.getByLabel('The model’s answer as it arrives')).toContainText('"kind"');
  const answer = page.getByRole('region', { name: `Answer: ${title}` });
  const chart = answer.getByRole('region', { name: title });
  await expect(chart.getByRole('button', { name: 'View as table' })).toBeVisible({ timeout: 120_000 });
  await expect(chart.locator('svg, canvas, img').first()).toBeVisible();
  await expect(answer.getByText(/^Plan: median of negotiated_rate from demo\.rates by payer/)).toBeVisible();
  await answer.getByText('SQL', { exact: true }).click();
  await expect(answer.getByLabel('SQL')).toContainText('"rates"');
  await chart.getByRole('button', { name: 'View as table' }).click();
  await expect(chart.getByRole('columnheader', { name: 'payer' })).toBeVisible();
  await shoot(page, 'answer');

  // Add to report: a new report, its version marked "drafted with the agent".
  await answer.getByRole('button', { name: 'Add to report' }).click();
  const dialog = page.getByRole('dialog', { name: `Add “${title}” to a report` });
  await dialog.getByRole('button', { name: 'Create the report' }).click();
  await expect(dialog.getByRole('status')).toHaveText(
    `Added to “${title}” as version 1, marked “drafted with the agent” in its history.`,
  );
  await dialog.getByRole('button', { name: 'Close' }).click();

  // A follow-up in the same conversation, answered in words.
  await askOnPage(page, `what is a payer? ${marker}`);
  await expect(page.getByRole('region', { name: 'The agent’s reply' })).toHaveText(
    'Payers are the insurers that negotiated each rate.',
  );
  const sent = await scripted(marker);
  expect(sent.requests).toHaveLength(2);
  // The follow-up carried the conversation so far.
  expect(sent.requests[1]!.messages.some((message) => message.content.includes('median negotiated rate'))).toBe(true);

  // Reopened from the list after a reload, then deleted.
  await page.reload();
  await expect(page.getByRole('region', { name: `Answer: ${title}` })).toBeVisible();
  await expect(page.getByRole('region', { name: 'The agent’s reply' })).toBeVisible();
  const list = page.getByRole('navigation', { name: 'Earlier conversations' });
  await list
    .getByRole('button', { name: `Delete the conversation “median negotiated rate by payer ${marker}”` })
    .click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(list.getByText(`median negotiated rate by payer ${marker}`)).toHaveCount(0);
  await expect(page.getByRole('region', { name: `Answer: ${title}` })).toHaveCount(0);

  // The report holds the block, and its history says who drafted it.
  await page.goto('/studio/reports');
  await page.getByRole('link', { name: title }).click();
  await expect(page.getByRole('region', { name: title })).toBeVisible();
});

test('a refusal says what was tried and why, and offers the builder', async ({ page }) => {
  const marker = uniqueTag('refuse');
  const wrong = { ...byPayer('Nope'), measures: [{ agg: 'sum', column: 'no_such_column', as: 'total' }] };
  await script(marker, { content: wrong }, { content: wrong }, { content: wrong });

  await page.goto('/Agent');
  await askOnPage(page, `total of the invented column ${marker}`);
  await expect(page.getByText('No checked answer')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'after 3 attempts' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'What was tried' }).getByRole('listitem')).toHaveCount(3);
  await expect(page.getByRole('list', { name: 'What was tried' })).toContainText('no_such_column');
  await shoot(page, 'refused');
  await page.getByRole('button', { name: 'Build it by hand' }).click();
  await expect(page.getByRole('tab', { name: 'Build by hand', selected: true })).toBeVisible();
});

test('Cancel stops a question mid-stream, and the model server sees it go', async ({ page }) => {
  const marker = uniqueTag('cancel');
  await script(marker, { endless: true, chunkDelayMs: 50 });

  await page.goto('/Agent');
  await askOnPage(page, `a question that never ends ${marker}`);
  await expect(page.getByLabel('The model’s answer as it arrives')).toContainText('and on');
  await expect(page.getByRole('status').filter({ hasText: 'Thinking' })).toBeVisible();
  await shoot(page, 'streaming');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'You cancelled' })).toBeVisible();
  await expect.poll(async () => (await scripted(marker)).gone, { timeout: 20_000 }).toBeGreaterThan(0);
  // The question is still in the box, to change and ask again.
  await expect(page.getByRole('textbox', { name: /question/ })).toHaveValue(`a question that never ends ${marker}`);
  await shoot(page, 'cancelled');
});

test("the editor's Ask the agent proposes a diff, accepted into the text and saved as drafted with the agent", async ({
  page,
  request,
  asker,
}) => {
  test.setTimeout(LONG_WALK_TIMEOUT_MS);
  const { tenant, token } = asker;
  const marker = uniqueTag('edit');
  const reportTitle = `Rates ${marker}`;
  const { slug } = await createReport(
    request,
    token,
    tenant.id,
    `title: ${reportTitle}\nsource: demo\nblocks:\n  - id: note\n    text: Rates of the demo data.\n`,
  );
  await script(marker, {
    content: {
      kind: 'plan',
      title: 'Rates counted',
      source: 'demo',
      table: 'rates',
      measures: [{ agg: 'count', column: null, as: 'rates' }],
      dimensions: [],
      filters: [],
      sort: [],
      limit: null,
      chart: 'kpi',
    },
  });

  await page.goto(`/studio/reports/${slug}/edit`);
  await expect(page.getByRole('heading', { level: 1, name: `Edit: ${reportTitle}` })).toBeVisible();
  await page.getByRole('tab', { name: 'Ask the agent' }).click();
  const box = page.getByRole('textbox', { name: 'Ask about this report' });
  await box.fill(`add how many rates there are ${marker}`);
  await box.press('Enter');
  const proposal = page.getByRole('region', { name: 'The agent’s proposal' });
  const diff = proposal.getByRole('region', { name: 'The report’s text with the proposal' });
  await expect(diff.locator('ins').filter({ hasText: 'title: Rates counted' })).toBeVisible({ timeout: 60_000 });
  await expect(proposal.getByRole('list', { name: 'The steps' })).toContainText(
    'Plan: count of rows from demo.rates as a kpi',
  );
  // The model was sent the open report.
  const sent = await scripted(marker);
  expect(sent.requests[0]!.messages[0]!.content).toContain(reportTitle);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoSeriousA11yViolations(page, `the editor's proposal ${width} (${scheme})`);
      await shoot(page, 'editor-proposal');
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 720 });

  await proposal.getByRole('button', { name: 'Accept into the editor' }).click();
  await expect(page.getByRole('textbox', { name: 'Report definition (YAML)' })).toContainText('Rates counted');
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Version 2', { exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByText('drafted with the agent')).toBeVisible();
});

test('with no model, /Agent says how to set one and builds a block by hand over the demo data', async ({ page }) => {
  test.setTimeout(LONG_WALK_TIMEOUT_MS);
  // The suite's server has a model: this page is told it has none, as a fresh `npm start` would say.
  await page.route('**/api/v1/agent/status', (route) =>
    route.fulfill({ json: { configured: false, model: null, allowed: true } }),
  );
  await page.goto('/Agent');
  await expect(page.getByText('No model is configured, so questions in words are off')).toBeVisible();
  await expect(page.getByText('AGENT_BASE_URL=http://127.0.0.1:11434/v1 AGENT_MODEL=llama3.1 npm start')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Build a block by hand' })).toBeVisible();

  const preview = page.getByRole('region', { name: 'Preview' });
  await page.getByLabel('Table').selectOption('rates');
  // Counting every row: one figure.
  await expect(preview.getByText(/^[\d,]+$/).first()).toBeVisible({ timeout: 120_000 });
  await page.getByLabel('Measure 1').selectOption('median');
  await page.getByLabel('of', { exact: true }).selectOption('negotiated_rate');
  await page.getByRole('button', { name: 'Add a group' }).click();
  await page.getByLabel('Group 1').selectOption('payer');
  await expect(page.getByLabel('Draw as')).toHaveValue('bar');
  await expect(preview.getByRole('region', { name: 'Median of negotiated_rate by payer' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(preview.getByRole('button', { name: 'View as table' })).toBeVisible();
  await preview.getByText('SQL', { exact: true }).click();
  await expect(preview.getByLabel('SQL')).toContainText('"negotiated_rate"');
  await shoot(page, 'builder');

  await preview.getByRole('button', { name: 'Add to report' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Create the report' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Added to “Median of negotiated_rate by payer” as version 1.');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The same block again, at the end of the report just made: its second version.
  await preview.getByRole('button', { name: 'Add to report' }).click();
  await dialog.getByRole('radio', { name: 'The end of one of this tenant’s reports' }).check();
  await expect(dialog.getByLabel('Report', { exact: true })).toHaveValue(/.+/);
  await dialog.getByRole('button', { name: 'Add to the report' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Added to “Median of negotiated_rate by payer” as version 2.');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`/Agent is axe clean with an answer, at 1280 and 390 px (${scheme})`, async ({ page }) => {
    test.setTimeout(LONG_WALK_TIMEOUT_MS);
    await page.emulateMedia({ colorScheme: scheme });
    const marker = uniqueTag('axe');
    const title = `Median rate by payer ${marker}`;
    await script(marker, { content: byPayer(title) });
    await page.goto('/Agent');
    await askOnPage(page, `median rate by payer ${marker}`);
    const chart = page.getByRole('region', { name: `Answer: ${title}` }).getByRole('region', { name: title });
    await expect(chart.getByRole('button', { name: 'View as table' })).toBeVisible({ timeout: 120_000 });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoSeriousA11yViolations(page, `/Agent ${width} (${scheme})`);
      await shoot(page, 'answer');
      await page.getByRole('tab', { name: 'Build by hand' }).click();
      await expect(
        page
          .getByRole('region', { name: 'Preview' })
          .getByText(/^[\d,]+$/)
          .first(),
      ).toBeVisible({
        timeout: 120_000,
      });
      await expectNoSeriousA11yViolations(page, `/Agent builder ${width} (${scheme})`);
      await shoot(page, 'builder');
      await page.getByRole('tab', { name: 'Ask in words' }).click();
    }
  });
}
