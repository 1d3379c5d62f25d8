import type { Frame, Page } from '@playwright/test';
import { expect, MARKETING_PAGES, test } from '../support/fixtures.js';
import { isChunk } from '../support/chunks.js';

test('/ goes to the Studio page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/studio$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'AI-assisted full-stack coding and business-intelligence reporting',
  );
  await expect(page).toHaveTitle(/^Studio/);
});

test('an unknown route shows the not-found screen with a 404 status, whose Go Back leads home', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  // A real 404, so search engines and monitors do not take the screen for a page.
  expect(response?.status()).toBe(404);
  await expect(page.getByText('404', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Oops!' })).toBeVisible();
  await expect(page.getByText('The page you are looking for was not found.')).toBeVisible();
  await page.getByRole('link', { name: 'Go Back' }).click();
  await expect(page).toHaveURL(/\/studio$/);
});

/** Opens `path` and answers every path the page went through (client-side redirects included). */
async function pathsVisited(page: Page, path: string, finalUrl: RegExp): Promise<string[]> {
  const visited: string[] = [];
  const record = (frame: Frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
  };
  page.on('framenavigated', record);
  await page.goto(path);
  await expect(page).toHaveURL(finalUrl);
  page.off('framenavigated', record);
  return visited;
}

test('/admin sends anonymous visitors, plain users and corrupt stored users to /login', async ({
  page,
  createAccount,
  signIn,
}) => {
  expect(await pathsVisited(page, '/admin', /\/login$/), 'anonymous').toContain('/login');

  await page.evaluate(() => localStorage.setItem('user', 'not json at all'));
  expect(await pathsVisited(page, '/admin', /\/login$/), 'corrupt user, no token').toContain('/login');

  await signIn(page, await createAccount());
  // Signed in, /login itself sends the person on to / (the Studio page).
  expect(await pathsVisited(page, '/admin', /\/studio$/), 'plain user').toContain('/login');

  await page.evaluate(() => localStorage.setItem('user', '{"id": "x", "is_superuser": tru'));
  expect(await pathsVisited(page, '/admin', /\/studio$/), 'corrupt user with a token').toContain('/login');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toHaveCount(0);
});

test('/admin opens for a superuser', async ({ page, createAccount, signIn }) => {
  await signIn(page, await createAccount({ isSuperuser: true }));
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  // The admin area opens on its first tab (each tab has its own URL).
  await expect(page).toHaveURL(/\/admin\/users$/);
});

test('/settings needs a token', async ({ page, createAccount, signIn }) => {
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, await createAccount());
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
});

test('the top-bar menus lead to every marketing page', async ({ page }) => {
  await page.goto('/studio');
  const visits = [
    ['Solutions & Services', 'Data Engineering', /\/data-engineering$/],
    ['Solutions & Services', 'High-Scale Tableau', /\/high-scale-tableau$/],
    ['Solutions & Services', 'Transparency Pipeline', /\/transparency-pipeline$/],
    ['Company', 'About Us', /\/about-us$/],
    ['Company', 'Contact', /\/contact$/],
    ['Platform', 'Studio', /\/studio$/],
  ] as const;
  for (const [menu, item, url] of visits) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: menu }).click();
    await page.getByRole('menuitem', { name: item }).click();
    await expect(page).toHaveURL(url);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
});

test('the user menu offers My Profile and Log In when signed out', async ({ page }) => {
  await page.goto('/about-us');
  await page.getByRole('button', { name: 'account menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'My Profile' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Log Out' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test.describe('on a narrow screen', () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test('the menus move into a drawer', async ({ page }) => {
    await page.goto('/studio');
    await expect(page.getByRole('button', { name: 'Solutions & Services' })).toBeHidden();
    await page.getByRole('button', { name: 'open navigation menu' }).click();
    const drawer = page.getByRole('navigation', { name: 'Site navigation' });
    await expect(drawer).toBeVisible();
    for (const heading of ['Platform', 'Solutions & Services', 'Company']) {
      await expect(drawer.getByText(heading, { exact: true })).toBeVisible();
    }
    await drawer.getByRole('link', { name: 'High-Scale Tableau' }).click();
    await expect(page).toHaveURL(/\/high-scale-tableau$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('High-scale Tableau deployments');
  });
});

test('navigation scrolls back to the top', async ({ page }) => {
  await page.goto('/studio');
  await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
  await page.getByRole('contentinfo').getByRole('link', { name: 'About Us' }).click();
  await expect(page).toHaveURL(/\/about-us$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test('the theme toggle switches to dark and the choice survives a reload', async ({ page }) => {
  await page.goto('/about-us');
  await expect(page.locator('html')).toHaveClass(/\blight\b/);
  await page.getByRole('button', { name: 'toggle light and dark theme' }).click();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
});

test('marketing pages arrive prerendered with their own title and description', async ({ request }) => {
  const titles = new Set<string>();
  for (const [path, heading] of MARKETING_PAGES) {
    const response = await request.get(path, { headers: { accept: 'text/html' } });
    expect(response.status(), path).toBe(200);
    const html = await response.text();
    expect(html, path).toContain(`>${heading}</h1>`);
    const title = /<title>([^<]+)<\/title>/.exec(html)?.[1];
    const description = /<meta name="description" content="([^"]+)"/.exec(html)?.[1];
    expect(title, path).toBeTruthy();
    expect(description?.length ?? 0, path).toBeGreaterThan(50);
    titles.add(title ?? '');
  }
  expect(titles.size).toBe(MARKETING_PAGES.length);

  const sitemap = await (await request.get('/sitemap.xml')).text();
  for (const [path] of MARKETING_PAGES) expect(sitemap).toContain(`${path}</loc>`);
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain('Sitemap: ');
  expect(robots).toContain('Disallow: /admin');
});

// The other marketing pages ship no app script at all (prerendered-pages.spec.ts).
test('the contact page never loads the signed-in areas or the auth screens', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/contact', { waitUntil: 'networkidle' });
  // The app comes with the person's first interaction (decision 058).
  await page.getByLabel('Name').focus();
  await expect(page.locator('html')).toHaveAttribute('data-app-running', '');
  expect(scripts.length).toBeGreaterThan(0);
  for (const chunk of ['settings', 'admin', 'login', 'signup', 'query-client']) {
    expect(
      scripts.filter((path) => isChunk(path, chunk)),
      chunk,
    ).toEqual([]);
  }
  // The names are the build's: the login screen loads its own chunk.
  await page.goto('/login', { waitUntil: 'networkidle' });
  expect(scripts.some((path) => isChunk(path, 'login'))).toBe(true);
});
