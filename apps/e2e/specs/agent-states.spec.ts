import { test as base, expect, expectNoSeriousA11yViolations, LONG_WALK_TIMEOUT_MS } from '../support/fixtures.js';
import { AdminApi, uniqueTag } from '../support/admin.js';
import { arrangeAsker, askOnPage, byPayer, script, shoot } from '../support/agent.js';

/*
 * Every state a person meets on /Agent, in words, at 1280 and 390 px in both themes: axe checks each
 * and a screenshot of each is left for a person to look at (SHOTS_DIR). The base fixtures, not the
 * admin ones: the model unavailable is the server's 502 on purpose.
 */

const test = base.extend<{ api: AdminApi }>({
  api: async ({ request, adminToken }, use) => {
    await use(new AdminApi(request, adminToken));
  },
});

test.describe.configure({ timeout: LONG_WALK_TIMEOUT_MS });

for (const scheme of ['light', 'dark'] as const) {
  test(`/Agent's states in words, axe clean at 1280 and 390 px (${scheme})`, async ({
    page,
    request,
    api,
    createAccount,
    signIn,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });

    // No agent:use: what to ask an administrator for.
    const plain = await createAccount();
    await signIn(page, plain);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/Agent');
      await expect(page.getByText('The agent is not part of your access yet')).toBeVisible();
      await expectNoSeriousA11yViolations(page, `not allowed ${width} (${scheme})`);
      await shoot(page, 'not-allowed');
    }

    const asker = await createAccount();
    await signIn(page, asker);
    await arrangeAsker(page, api, request, asker);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      // A marker per question: what one consumes of the script never reaches another.
      const marker = (state: string) => uniqueTag(state);

      // No model configured (as a fresh npm start): the README's words, then the builder.
      await page.route('**/api/v1/agent/status', (route) =>
        route.fulfill({ json: { configured: false, model: null, allowed: true } }),
      );
      await page.goto('/Agent');
      await expect(page.getByText('No model is configured, so questions in words are off')).toBeVisible();
      await expect(
        page
          .getByRole('region', { name: 'Preview', exact: true })
          .getByText(/^[\d,]+$/)
          .first(),
      ).toBeVisible({ timeout: 120_000 });
      await expectNoSeriousA11yViolations(page, `not configured ${width} (${scheme})`);
      await shoot(page, 'not-configured');
      await page.unroute('**/api/v1/agent/status');

      // An empty tenant, nothing asked yet.
      await page.goto('/Agent');
      await expect(page.getByText(/has no data of its own yet/)).toBeVisible();
      await expectNoSeriousA11yViolations(page, `empty tenant ${width} (${scheme})`);
      await shoot(page, 'empty-tenant');

      // Thinking, with the model's text streaming, then cancelled.
      const streaming = marker('stream');
      await script(streaming, { endless: true, chunkDelayMs: 80 });
      await askOnPage(page, `stream for ever ${streaming}`);
      await expect(page.getByLabel('The model’s answer as it arrives')).toContainText('and on');
      await expectNoSeriousA11yViolations(page, `streaming ${width} (${scheme})`);
      await shoot(page, 'streaming');
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await expect(page.getByRole('status').filter({ hasText: 'You cancelled' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `cancelled ${width} (${scheme})`);
      await shoot(page, 'cancelled');

      // A refusal: each attempt and why.
      const wrong = { ...byPayer('Nope'), measures: [{ agg: 'sum', column: 'no_such_column', as: 'total' }] };
      const refused = marker('refuse');
      await script(refused, { content: wrong }, { content: wrong }, { content: wrong });
      await askOnPage(page, `an invented column ${refused}`);
      await expect(page.getByText('No checked answer')).toBeVisible({ timeout: 60_000 });
      await expectNoSeriousA11yViolations(page, `refused ${width} (${scheme})`);
      await shoot(page, 'refused');

      // The model server failing: try again in a moment.
      const failing = marker('fail');
      await script(failing, { status: 500 });
      await askOnPage(page, `the model fails ${failing}`);
      await expect(page.getByText('The model did not answer')).toBeVisible({ timeout: 60_000 });
      await expectNoSeriousA11yViolations(page, `unavailable ${width} (${scheme})`);
      await shoot(page, 'unavailable');
    }

    // The tenant's budget for the day spent by one answer: the next question says when it comes back.
    const costly = uniqueTag('budget');
    await script(costly, {
      content: { kind: 'reply', text: 'A costly answer.' },
      usage: { prompt_tokens: 10_000_000, completion_tokens: 1 },
    });
    await askOnPage(page, `spend the budget ${costly}`);
    await expect(page.getByRole('region', { name: 'The agent’s reply' })).toHaveText('A costly answer.');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await askOnPage(page, `one more ${costly}`);
      await expect(page.getByText('Today’s agent budget is spent')).toBeVisible();
      await expect(
        page.getByRole('alert').filter({ hasText: /Questions work again at 00:00 UTC, in about/ }),
      ).toBeVisible();
      await expectNoSeriousA11yViolations(page, `budget ${width} (${scheme})`);
      await shoot(page, 'budget');
    }
  });
}
