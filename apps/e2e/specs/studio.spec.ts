import { expect, expectNoSeriousA11yViolations, test } from '../support/fixtures.js';

/** STUDIO-VIEW: the built-in reports read in a browser, on the real engine and its demo data. */

test('a signed-in user reads the payer report: figures, a chart, a paged table, parameters kept in the URL', async ({
  page,
  createAccount,
  signIn,
}) => {
  test.setTimeout(180_000);
  await signIn(page, await createAccount());
  await page.goto('/studio/reports');
  await page.getByRole('link', { name: 'Negotiated rates by payer' }).click();
  await expect(page).toHaveURL(/\/payer$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Negotiated rates by payer' })).toBeVisible();

  const median = page.getByRole('region', { name: 'Median negotiated rate' });
  await expect(median.getByText(/^\$[\d,]+\.\d\d$/)).toBeVisible({ timeout: 60_000 });
  const chart = page.getByRole('region', { name: 'Median rate by payer' });
  await expect(chart.getByRole('img')).toBeVisible();
  await chart.getByRole('button', { name: 'View as table' }).click();
  await expect(chart.getByRole('table')).toContainText('median_rate');

  const outliers = page.getByRole('region', { name: /furthest from their payer/ });
  await expect(outliers.getByText(/^1–25 of [\d,]+$/)).toBeVisible({ timeout: 60_000 });
  await outliers.getByRole('button', { name: 'Go to next page' }).click();
  await expect(outliers.getByText(/^26–50 of [\d,]+$/)).toBeVisible();
  await expect(page).toHaveURL(/page\.outliers=2/);

  await page.getByRole('textbox', { name: /^State/ }).fill('tx');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/state=tx/);
  await expect(page).not.toHaveURL(/page\.outliers/);
  await expect(outliers.getByText(/^1–25 of [\d,]+$/)).toBeVisible({ timeout: 60_000 });

  // The billing codes come from the report's own query, in a searchable list.
  await page.getByRole('combobox', { name: 'Billing code' }).click();
  await page.getByRole('combobox', { name: 'Billing code' }).fill('7045');
  await page.getByRole('option', { name: '70450' }).click();
  await expect(page).toHaveURL(/code=70450/);
  await expect(outliers.getByText(/^1–25 of [\d,]+$/)).toBeVisible({ timeout: 60_000 });

  // The whole table, in the order shown, as a CSV file.
  const downloading = page.waitForEvent('download');
  await outliers.getByRole('button', { name: /^Download .* as CSV$/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('payer-outliers.csv');
  const stream = await download.createReadStream();
  let csv = '';
  for await (const chunk of stream) csv += String(chunk);
  const total = Number(
    (await outliers.getByText(/^1–25 of [\d,]+$/).textContent())!.replace(/^.* of /, '').replaceAll(',', ''),
  );
  expect(csv.split('\r\n').filter((line) => line !== '')).toHaveLength(total + 1);

  // The link reproduces the view.
  await page.reload();
  await expect(page.getByRole('textbox', { name: /^State/ })).toHaveValue('tx');
  await expect(median.getByText(/^\$[\d,]+\.\d\d$/)).toBeVisible({ timeout: 60_000 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousA11yViolations(page, `payer report, ${scheme}`);
  }
});

test('a chart is the server’s drawing, with no Vega on the page, then goes live with its tooltips when pointed at', async ({
  page,
  user: _user,
}) => {
  test.setTimeout(120_000);
  const scripts: string[] = [];
  const drawings: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    if (/\/charts\/[\w-]+\.svg\?/.test(request.url())) drawings.push(new URL(request.url()).pathname);
  });
  await page.goto('/payer');
  const chart = page.getByRole('region', { name: 'Median rate by payer' }).getByRole('img');
  const picture = chart.locator('svg.marks');
  await expect(picture).toBeVisible({ timeout: 60_000 });
  // The picture is the server's SVG, inlined: neither the worker's script nor Vega has loaded.
  expect(
    drawings.some((drawing) => /^\/api\/v1\/studio\/reports\/[\w-]+\/charts\/median_by_payer\.svg$/.test(drawing)),
  ).toBe(true);
  expect(scripts.some((script) => /\/chart-picture\.worker-[\w-]{8}\.js$/.test(script))).toBe(false);
  expect(scripts.some((script) => /\/live-chart-[\w-]{8}\.js$/.test(script))).toBe(false);
  const size = () => picture.evaluate((svg) => [svg.getAttribute('width'), svg.getAttribute('height')]);
  const [drawnWidth] = await size();
  expect(Number(drawnWidth)).toBeGreaterThan(100);

  // Pointed at once the viewer has the page (its frame may show the drawing before the app runs).
  await expect(
    page.getByRole('region', { name: 'Median rate by payer' }).getByRole('button', { name: 'View as table' }),
  ).toBeEnabled({ timeout: 60_000 });
  const box = (await chart.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
  await expect(chart.locator('[role="graphics-document"] svg.marks')).toBeVisible({ timeout: 30_000 });
  expect(scripts.some((script) => /\/live-chart-[\w-]{8}\.js$/.test(script))).toBe(true);
  // The live view is as wide as the picture it replaced (text is measured apart: heights may differ by a label's pixels).
  expect((await size())[0]).toBe(drawnWidth);

  // A bar answers a pointer with its figures (Vega names each bar by them: "…; Payer: Aetna").
  const firstBar = chart.locator('[aria-roledescription="bar"]').first();
  const payer = (await firstBar.getAttribute('aria-label'))!.replace(/^.*Payer: /, '');
  await firstBar.hover();
  const tooltip = page.locator('#vg-tooltip-element');
  await expect(tooltip).toContainText(/Median negotiated rate\s*\$[\d,]+/);
  await expect(tooltip).toContainText(payer);
});

test('a chart downloads as the server draws it, PNG or SVG, from its menu by keyboard at phone width', async ({
  page,
  user: _user,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/payer');
  const chart = page.getByRole('region', { name: 'Median rate by payer' });
  await expect(chart.locator('[role="img"] svg.marks')).toBeVisible({ timeout: 60_000 });
  const menuButton = chart.getByRole('button', { name: 'Download', exact: true });
  // The page's frame may show the drawing before the app runs; the menu is the viewer's.
  await expect(menuButton).toBeEnabled({ timeout: 60_000 });
  for (const [item, name, magic] of [
    ['Download PNG', 'payer-median_by_payer.png', '\u0089PNG'],
    ['Download SVG', 'payer-median_by_payer.svg', '<svg'],
  ] as const) {
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const entry = page.getByRole('menuitem', { name: item });
    await expect(entry).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expectNoSeriousA11yViolations(page, `chart download menu, ${scheme}`);
    }
    await entry.focus();
    const downloading = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(name);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
    expect(Buffer.concat(chunks).toString('latin1').slice(0, magic.length)).toBe(magic);
    await expect(entry).toBeHidden();
  }
  // Nothing of the block is cut at phone width.
  const overflow = await chart.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('a chart Vega cannot draw says so in its own block, and the other blocks still show', async ({
  page,
  user: _user,
}) => {
  // A chart whose mark Vega-Lite does not know, as the server answers it (the built-ins draw).
  const refusal = 'The chart could not be drawn from its spec: Invalid specification {"mark":"nonsense"}.';
  await page.route(/\/api\/v1\/studio\/reports\/[\w-]+\/charts\/median_by_payer\.svg/, (route) =>
    route.fulfill({ status: 422, json: { detail: refusal, code: 'chart_refused' } }),
  );
  await page.goto('/payer');
  const broken = page.getByRole('region', { name: 'Median rate by payer' });
  await expect(broken.getByRole('alert')).toHaveText(refusal, { timeout: 60_000 });
  await expect(
    page.getByRole('region', { name: /^Spread of rates by payer/ }).locator('[role="img"] svg.marks'),
  ).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Median negotiated rate' }).getByText(/^\$[\d,]+\.\d\d$/),
  ).toBeVisible();
});

test('a visitor who is not signed in is sent to log in from a report', async ({ page }) => {
  await page.goto('/hospital-prices');
  await expect(page).toHaveURL(/\/login/);
});

test('Studio is in the account menu, and without a tenant the list says how to get one', async ({
  page,
  user: _user,
}) => {
  await page.goto('/settings/profile');
  await page.getByRole('button', { name: 'account menu' }).click();
  await page.getByRole('menuitem', { name: 'Studio' }).click();
  await expect(page).toHaveURL(/\/studio\/reports$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Studio' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('ask an administrator to add you to one');
  await expect(page.getByRole('link', { name: 'Negotiated rates by payer' })).toBeVisible();
});
