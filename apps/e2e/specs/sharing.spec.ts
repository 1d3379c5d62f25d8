import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import {
  type AdminApi,
  createReport,
  expect,
  openReport,
  screenshot,
  test,
  toast,
  uniqueTag,
  type Named,
} from '../support/admin.js';
import {
  apiLogin,
  expectNoSeriousA11yViolations,
  LONG_WALK_TIMEOUT_MS,
  type TestAccount,
} from '../support/fixtures.js';

/** Issue 58: who sees a report, share links opened without an account, and a report framed by another site. */

const definition = (title: string) => `title: ${title}
description: Shared by the sharing spec.
source: demo
params:
  code: { label: Billing code, type: select, options: ["99213", "70450"], default: "99213" }
blocks:
  - id: rows
    title: Rates counted
    kpi: { sql: "SELECT count(*) AS n FROM rates WHERE billing_code = :code", value: n, format: integer }
  - id: by_payer
    title: Rates by payer
    table: { sql: "SELECT payer, count(*) AS n FROM rates WHERE billing_code = :code GROUP BY payer ORDER BY payer", page_size: 5 }
  - id: payers
    title: Payers charted
    chart:
      sql: "SELECT payer, count(*) AS n FROM rates WHERE billing_code = :code GROUP BY payer"
      spec:
        mark: bar
        encoding:
          y: { field: payer, type: nominal, title: Payer }
          x: { field: n, type: quantitative, title: Rates }
`;

/** The API calls each page made, as "METHOD url". */
const apiCalls = new WeakMap<Page, string[]>();
function recordApiCalls(page: Page) {
  const calls: string[] = [];
  apiCalls.set(page, calls);
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/')) calls.push(`${request.method()} ${request.url()}`);
  });
}

/**
 * What a viewer at the report's own values asks for: the report, whose first runs came with it (no
 * run is asked for again), and its chart as the server draws it (decision 064), inlined.
 */
async function expectOneCallViewer(page: Page, frame: ReturnType<Page['frameLocator']> | Page, drawing: RegExp) {
  const chart = frame.getByRole('region', { name: 'Payers charted' });
  await expect(chart.locator('[aria-label$="Use View as table to read its numbers."] svg')).toBeVisible({
    timeout: 120_000,
  });
  const calls = apiCalls.get(page) ?? [];
  expect(calls.some((call) => drawing.test(call))).toBe(true);
  expect(calls.filter((call) => /\/run$/.test(call))).toEqual([]);
}

/** An author (reports:write, embed:manage) and a plain member of a fresh tenant, and a report of the author's. */
async function arrange(api: AdminApi, request: APIRequestContext, author: TestAccount, member: TestAccount) {
  await api.grant(author.id, ['reports:write', 'embed:manage']);
  const tenant = await api.send<Named>('POST', '/tenants/', { name: uniqueTag('Sharing '), status: 'active' });
  await api.send('PUT', `/tenants/${tenant.id}/members`, [author.id, member.id]);
  const token = await apiLogin(request, author.email, author.password);
  const title = `Shared ${uniqueTag('r')}`;
  const report = await createReport(request, token, tenant.id, definition(title));
  return { tenant, title, report };
}

const shoot = (page: Page, name: string) => screenshot(page, `sharing-${name}`);

// Both tests walk many steps; the first, which also frames the report in another site, is given longer.
test.describe.configure({ timeout: LONG_WALK_TIMEOUT_MS });

/** A page in a browser context of its own: no session, no storage, as a stranger opening a link. */
async function strangerPage(browser: Browser, baseURL: string, scheme: 'light' | 'dark', width = 1280) {
  const context = await browser.newContext({ baseURL, colorScheme: scheme, viewport: { width, height: 900 } });
  return { context, page: await context.newPage() };
}

/** An HS256 JWT, as the tenant's own server would sign it (README: "Embedding a report in another site"). */
function signEmbedToken(secret: string, claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/** Another site on loopback whose one page frames what `src()` says when it is asked. */
async function hostSite(src: () => string): Promise<{ origin: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      `<!doctype html><html lang="en"><title>Customer portal</title><h1>Customer portal</h1><iframe title="Embedded report" src="${src()}" width="1000" height="700"></iframe></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://localhost:${(server.address() as AddressInfo).port}`, server };
}

test('an author restricts a report, shares a link a stranger opens, revokes it, and embeds the report in another site', async ({
  page,
  browser,
  baseURL,
  request,
  api,
  createAccount,
  signIn,
}) => {
  test.setTimeout(LONG_WALK_TIMEOUT_MS + 120_000);
  const author = await createAccount();
  const member = await createAccount();
  const { tenant, title, report } = await arrange(api, request, author, member);
  const memberToken = await apiLogin(request, member.email, member.password);
  const asMember = { authorization: `Bearer ${memberToken}`, 'x-tenant-id': tenant.id };
  await signIn(page, author);
  await openReport(page, tenant.id, report.slug, title);

  // Who sees it: restricted to nobody but its author, the member is told it does not exist.
  await page.getByRole('button', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: `Share “${title}”` });
  await expect(dialog.getByRole('radio', { name: 'Every member of the tenant' })).toBeChecked();
  await dialog.getByRole('radio', { name: 'Only the people and roles named below' }).check();
  await expect(dialog.getByRole('combobox', { name: 'Members' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'share dialog, who sees it');
  await shoot(page, 'dialog-people');
  await dialog.getByRole('button', { name: 'Save who sees it' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Saved: only the people and roles named see this report.');
  expect((await request.get(`/api/v1/studio/reports/${report.id}`, { headers: asMember })).status()).toBe(404);
  // Named by email, the member sees it again.
  await dialog.getByRole('combobox', { name: 'Members' }).fill(member.email);
  await page.getByRole('option', { name: new RegExp(member.email.replace(/[.+]/g, '\\$&')) }).click();
  await expect(dialog.getByRole('status')).toHaveText('');
  await dialog.getByRole('button', { name: 'Save who sees it' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Saved: only the people and roles named see this report.');
  await expect
    .poll(async () => (await request.get(`/api/v1/studio/reports/${report.id}`, { headers: asMember })).status())
    .toBe(200);

  // A link with the billing code fixed, expiring in a week.
  await dialog.getByRole('tab', { name: 'Links' }).click();
  await expect(dialog.getByText('No links yet: only members of the tenant see this report.')).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Stops working' }).selectOption({ label: 'In a week' });
  await dialog.getByRole('checkbox', { name: 'Billing code: 99213' }).check();
  await dialog.getByRole('button', { name: 'Make a link' }).click();
  await expect(dialog.getByRole('status').first()).toHaveText(
    'Link made. Copy it now: its address is shown this once.',
  );
  const address = await dialog.getByRole('textbox', { name: 'Link address' }).inputValue();
  expect(address).toMatch(/\/s\/[A-Za-z0-9_-]{22,}$/);
  const links = dialog.getByRole('list', { name: 'Links to this report' });
  await expect(links.getByRole('listitem')).toHaveCount(1);
  await expect(links).toContainText('Fixed: code = 99213');
  await expect(links).toContainText('Active');
  await expectNoSeriousA11yViolations(page, 'share dialog, links');
  await shoot(page, 'dialog-links');

  // A stranger opens it: the report alone, the fixed code shown and not offered, its rows paged.
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      const stranger = await strangerPage(browser, baseURL!, scheme, width);
      recordApiCalls(stranger.page);
      const response = await stranger.page.goto(new URL(address).pathname);
      expect(response?.headers()['x-robots-tag']).toBe('noindex, nofollow');
      expect(response?.headers()['referrer-policy']).toBe('no-referrer');
      await expect(stranger.page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(stranger.page.getByText('Billing code: 99213')).toBeVisible();
      await expect(stranger.page.getByRole('combobox', { name: 'Billing code' })).toHaveCount(0);
      const rows = stranger.page.getByRole('region', { name: 'Rates counted' });
      await expect(rows.getByText(/^[\d,]+$/)).toBeVisible({ timeout: 120_000 });
      await expect(
        stranger.page.getByRole('region', { name: 'Rates by payer' }).getByText(/^1–5 of \d+$/),
      ).toBeVisible();
      await expectOneCallViewer(
        stranger.page,
        stranger.page,
        /^GET .*\/api\/v1\/studio\/public\/[^/]+\/charts\/payers\.svg\?/,
      );
      await expect(stranger.page.getByRole('link', { name: 'Log In' })).toHaveCount(0);
      await expect(stranger.page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
      await expectNoSeriousA11yViolations(stranger.page, `shared report ${width} ${scheme}`);
      await shoot(stranger.page, 'public');
      await stranger.context.close();
    }
  }

  // Revoked, the link answers "gone" and the page says so.
  await links.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog', { name: 'Revoke this link?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(
    dialog.getByRole('status').filter({ hasText: 'Link revoked: whoever holds it is told it no longer works.' }),
  ).toBeVisible();
  await expect(links).toContainText('Revoked');
  const revoked = await strangerPage(browser, baseURL!, 'light');
  await revoked.page.goto(new URL(address).pathname);
  await expect(revoked.page.getByRole('heading', { level: 1, name: 'This link no longer works' })).toBeVisible();
  await shoot(revoked.page, 'public-revoked');
  await revoked.context.close();

  // The embed snippet names the report.
  await dialog.getByRole('tab', { name: 'Embed' }).click();
  await expect(dialog.getByLabel('Snippet')).toContainText(`/embed/${report.id}?token=SIGNED_TOKEN`);
  await expectNoSeriousA11yViolations(page, 'share dialog, embed');
  await dialog.getByRole('link', { name: 'Set the allowed sites and the embed secret' }).click();

  // The tenant's embedding: the customer's portal allowed, a secret made and shown once.
  let frameSrc = 'about:blank';
  const portal = await hostSite(() => frameSrc);
  try {
    await expect(page.getByRole('heading', { level: 1, name: 'Embedding' })).toBeVisible();
    await expect(page.getByText('No secret yet: no report of the tenant can be embedded.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Site' }).fill(`${portal.origin}/`);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByRole('list', { name: 'Allowed sites' })).toContainText(portal.origin);
    await page.getByRole('button', { name: 'Save sites' }).click();
    await expect(toast(page, 'Saved: only these sites may frame the tenant’s reports.')).toBeVisible();
    await page.getByRole('button', { name: 'Make a secret' }).click();
    const secret = await page.getByRole('textbox', { name: 'Embed secret' }).inputValue();
    expect(secret.length).toBeGreaterThanOrEqual(43);
    await expectNoSeriousA11yViolations(page, 'embedding settings');
    await shoot(page, 'embed-settings');

    // The portal frames the report, its rows locked to the code its server signed.
    frameSrc = `${baseURL}/embed/${report.id}?token=${signEmbedToken(secret, {
      report: report.id,
      params: { code: '70450' },
      exp: Math.floor(Date.now() / 1000) + 600,
    })}`;
    const visitor = await strangerPage(browser, baseURL!, 'dark');
    recordApiCalls(visitor.page);
    await visitor.page.goto(portal.origin);
    const frame = visitor.page.frameLocator('iframe[title="Embedded report"]');
    await expect(frame.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(frame.getByText('Billing code: 70450')).toBeVisible();
    await expect(frame.getByRole('region', { name: 'Rates counted' }).getByText(/^[\d,]+$/)).toBeVisible({
      timeout: 120_000,
    });
    await expectOneCallViewer(visitor.page, frame, /^POST .*\/api\/v1\/studio\/embed\/charts\/payers\.svg$/);
    await shoot(visitor.page, 'embedded');
    await visitor.context.close();
  } finally {
    portal.server.close();
  }

  // A site off the list is refused the frame by the browser itself.
  const stray = await hostSite(() => frameSrc);
  try {
    const visitor = await strangerPage(browser, baseURL!, 'light');
    const blocked = visitor.page.waitForEvent('console', (message) => /frame-ancestors/.test(message.text()));
    await visitor.page.goto(stray.origin);
    await blocked;
    await expect(
      visitor.page.frameLocator('iframe[title="Embedded report"]').getByRole('heading', { name: title }),
    ).toHaveCount(0);
    await visitor.context.close();
  } finally {
    stray.server.close();
  }
});

test('the Share dialog and the embedding settings work by keyboard at phone width in the dark scheme', async ({
  page,
  request,
  api,
  createAccount,
  signIn,
  user: author,
}) => {
  const member = await createAccount();
  const { tenant, title, report } = await arrange(api, request, author, member);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await openReport(page, tenant.id, report.slug, title);

  // To Share by keyboard, open it, and move between its tabs with the arrow keys.
  const share = page.getByRole('button', { name: 'Share' });
  await share.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Share “${title}”` });
  await expect(dialog.getByRole('radio', { name: 'Every member of the tenant' })).toBeChecked();
  await expectNoSeriousA11yViolations(page, 'share dialog at 390 px, dark');
  await shoot(page, 'dialog-people');
  await dialog.getByRole('tab', { name: 'Who sees it' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('tab', { name: 'Links' })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog.getByRole('button', { name: 'Make a link' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Make a link' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('status')).toHaveText('Link made. Copy it now: its address is shown this once.');
  await expect(dialog.getByRole('list', { name: 'Links to this report' })).toContainText('never expires');
  await expectNoSeriousA11yViolations(page, 'share dialog links at 390 px, dark');
  await shoot(page, 'dialog-links');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The embedding settings: the way there from the list, and the screen at phone width.
  await page.goto('/studio/reports');
  await page.getByRole('link', { name: 'Embedding' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Embedding' })).toBeVisible();
  await expect(page.getByText('No site yet: no other site can frame the tenant’s reports.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Site' }).fill('ftp://nope.example/path');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Save sites' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not saved:' })).toContainText('An origin is https://host');
  await expectNoSeriousA11yViolations(page, 'embedding settings at 390 px, dark');
  await shoot(page, 'embed-settings');

  // A member without embed:manage is told who sets it.
  await signIn(page, member);
  await page.evaluate((id) => localStorage.setItem('selectedTenantId', id), tenant.id);
  await page.goto('/studio/embed');
  await expect(
    page.getByText(
      'Only an administrator of the tenant (the embed:manage permission) sets where its reports may be embedded.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Embedding' })).toHaveCount(0);
});
