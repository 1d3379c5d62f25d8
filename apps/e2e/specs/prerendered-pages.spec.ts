import type { Page } from '@playwright/test';
import { isChunk } from '../support/chunks.js';
import { expect, expectNoSeriousA11yViolations, test, uniqueEmail } from '../support/fixtures.js';

// The marketing pages, the auth screens and the frames of the signed-in tabs and showcase reports
// arrive as HTML rendered at build time (React Router's prerendering, docs/decisions/053-web-framework.md).
// A marketing page with nothing for React to do ships no app script at all; its menus, drawer and theme
// toggle are the platform's (decision 053). Elsewhere the app hydrates the page; until it runs, nothing a
// visitor does is lost or leaks: a form sent early is not sent by the browser (its fields would land in
// the address) but by the app once it runs, and a field left early is checked then.

/** Holds the app's client entry until the returned function is called, as on a slow network. */
async function holdApp(page: Page): Promise<() => void> {
  let releaseApp: () => void = () => undefined;
  const appHeld = new Promise<void>((resolve) => (releaseApp = resolve));
  await page.route('**/assets/entry.client-*.js', async (route) => {
    await appHeld;
    await route.continue();
  });
  return releaseApp;
}

/**
 * Records the class rules the page's Emotion inserts from now on: each is a style the browser had to
 * compute and insert at run time because the page did not bring it.
 */
async function recordClassRules(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const classRules: string[] = [];
    Object.assign(window, { classRules });
    const insertRule = CSSStyleSheet.prototype.insertRule;
    CSSStyleSheet.prototype.insertRule = function (rule: string, index?: number) {
      if (rule.startsWith('.')) classRules.push(rule);
      return insertRule.call(this, rule, index);
    };
  });
  return () => page.evaluate(() => (window as unknown as { classRules: string[] }).classRules);
}

test('a marketing page ships no app script', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  const response = await page.goto('/about-us', { waitUntil: 'networkidle' });
  expect(await response?.text()).not.toContain('type="module"');
  expect(scripts).toEqual([]);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('menus open, move and close from the keyboard', async ({ page }) => {
  await page.goto('/about-us', { waitUntil: 'networkidle' });
  const button = page.getByRole('button', { name: 'Solutions & Services' });
  await button.focus();
  await page.keyboard.press('Enter');

  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('menuitem', { name: 'Data Engineering' })).toBeFocused();
  await expectNoSeriousA11yViolations(page, 'open menu');

  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'High-Scale Tableau' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('menuitem', { name: 'Transparency Pipeline' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(page.getByRole('menuitem', { name: 'Data Engineering' })).toBeFocused();
  await page.keyboard.press('h');
  await expect(page.getByRole('menuitem', { name: 'High-Scale Tableau' })).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(button).toBeFocused();
  await expect(button).not.toHaveAttribute('aria-expanded');

  // Tab closes a menu too, focus back on its button.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Data Engineering' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(menu).toHaveCount(0);
  await expect(button).toBeFocused();

  // A choice loads its page.
  await page.getByRole('button', { name: 'account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('a click beside an open menu closes it', async ({ page }) => {
  await page.goto('/studio');
  await page.getByRole('button', { name: 'Company' }).click();
  await expect(page.getByRole('menuitem', { name: 'About Us' })).toBeVisible();
  await page.mouse.click(900, 600);
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test.describe('on a narrow screen', () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test('the drawer takes focus, keeps Tab inside and gives focus back', async ({ page }) => {
    await page.goto('/data-engineering', { waitUntil: 'networkidle' });
    const opener = page.getByRole('button', { name: 'open navigation menu' });
    await opener.click();
    const drawer = page.getByRole('dialog', { name: 'Navigation menu' });
    await expect(drawer).toBeFocused();
    await expectNoSeriousA11yViolations(page, 'open drawer');

    const links = drawer.getByRole('link');
    // Studio, Reports, Learn, the three solutions, About Us and Contact.
    await expect(links).toHaveCount(8);
    await page.keyboard.press('Tab');
    await expect(links.first()).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(links.last()).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(links.first()).toBeFocused();

    await page.keyboard.press('Escape');
    await expect(drawer).toHaveCount(0);
    await expect(opener).toBeFocused();
  });
});

test('the theme toggle switches both ways and remembers the choice', async ({ page }) => {
  await page.goto('/transparency-pipeline', { waitUntil: 'networkidle' });
  const html = page.locator('html');
  await expect(html).toHaveClass(/\blight\b/);
  await page.getByRole('button', { name: 'toggle light and dark theme' }).click();
  await expect(html).toHaveClass(/\bdark\b/);
  await page.getByRole('button', { name: 'toggle light and dark theme' }).click();
  await expect(html).toHaveClass(/\blight\b/);
  expect(await page.evaluate(() => localStorage.getItem('mui-mode'))).toBe('light');
});

// /contact runs the app on the person's first interaction (decision 058): until then it loads no
// script, and what the person does meanwhile is kept.
test('/contact loads no script until a person acts, keeps what was typed, and makes an early send again', async ({
  page,
}) => {
  const releaseApp = await holdApp(page);
  const scripts: string[] = [];
  const sends: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
    if (request.url().endsWith('/api/v1/contact/')) sends.push(request.method());
  });

  await page.goto('/contact', { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { name: 'Contact Us' })).toBeVisible();
  expect(scripts).toEqual([]);

  await page.getByLabel('Name').fill('Casey Early');
  await page.getByLabel('Email').fill(uniqueEmail('early'));
  await page.getByRole('button', { name: 'Send Message' }).click();
  // Not sent natively: the page and its address stay as they were.
  await expect(page).toHaveURL(/\/contact$/);
  expect(scripts).not.toEqual([]);
  releaseApp();
  await expect(page.locator('html')).toHaveAttribute('data-app-running', '');

  // The early send, made again by the app: the fields still empty are named, the first one focused.
  const subject = page.getByLabel('Subject');
  await expect(subject).toHaveAccessibleDescription('Subject must be at least 5 characters');
  await expect(subject).toBeFocused();
  await expect(page.getByLabel('Name')).toHaveValue('Casey Early');
  await subject.fill('Typed before the app');
  await page.getByLabel('Message').fill('This message was started before the app had loaded.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText("Thank you for your message. We'll get back to you soon!")).toBeVisible();
  expect(sends).toEqual(['POST']);
});

test('/contact checks a field left before the app ran once the app runs', async ({ page }) => {
  const releaseApp = await holdApp(page);
  await page.goto('/contact', { waitUntil: 'networkidle' });
  const email = page.getByLabel('Email');
  await email.fill('casey@');
  await email.blur();
  releaseApp();
  await expect(email).toHaveAccessibleDescription('Invalid email address');
  await expect(email).toHaveValue('casey@');
});

test('on a marketing page a signed-in visitor can reach Studio and log out', async ({ page, user: _user }) => {
  await page.goto('/about-us');
  await page.getByRole('button', { name: 'account menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Studio' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Log In' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();

  // Signed out now: the same menu offers Log In.
  await page.goto('/about-us');
  await page.getByRole('button', { name: 'account menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Log In' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Log Out' })).toHaveCount(0);
});

test.describe('auth screens', () => {
  test('arrive as markup, and the app takes them over', async ({ page }) => {
    const releaseApp = await holdApp(page);
    const response = await page.goto('/signup');
    expect(await response?.text()).toContain('Already have an account?');
    await expect(page.getByRole('heading', { name: 'Sign Up' })).toBeVisible();
    releaseApp();
    await expect(page.locator('html')).toHaveAttribute('data-app-running', '');
    await page.getByRole('textbox', { name: 'Full Name' }).fill('A');
    await page.getByRole('textbox', { name: 'Full Name' }).blur();
    await expect(page.getByRole('textbox', { name: 'Full Name' })).toHaveAccessibleDescription(/.+/);
  });

  // The page's style tags list every class its render made, the component-level ones MUI composes into
  // a root's class included (entry.server.tsx): the browser's Emotion finds them all and parses none
  // again while hydrating. (MUI's text fields add their autofill keyframes, which are not classes; a
  // field that takes focus later adds the classes of its new look.)
  test('hydrate without styling the page again', async ({ page }) => {
    const classRules = await recordClassRules(page);
    await page.goto('/signup', { waitUntil: 'networkidle' });
    await expect(page.locator('html')).toHaveAttribute('data-app-running', '');
    expect(await classRules()).toEqual([]);
  });

  test('a password typed and sent before the app arrives never reaches the address; the app sends it once', async ({
    page,
    createAccount,
  }) => {
    const account = await createAccount();
    const releaseApp = await holdApp(page);
    const sends: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/login/access-token')) sends.push(request.method());
    });

    await page.goto('/login');
    await page.getByRole('textbox', { name: 'Email' }).fill(account.email);
    await page.locator('input[autocomplete="current-password"]').fill(account.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(sends).toEqual([]);
    releaseApp();

    // The press made before the app ran is made again by the app: one sign-in, no second press.
    await expect(page).toHaveURL(/\/studio$/);
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeTruthy();
    expect(sends).toEqual(['POST']);
  });

  // Zod and the contract's schemas are the heaviest modules to evaluate: they stay out of the page's
  // first load and come when the person nears the form (lib/schema-on-demand.ts).
  test("bring the form's rules when the person nears the form, not with the page", async ({ page }) => {
    const schemaChunks: string[] = [];
    page.on('request', (request) => {
      if (isChunk(new URL(request.url()).pathname, 'schemas')) schemaChunks.push(request.url());
    });
    await page.goto('/login', { waitUntil: 'networkidle' });
    await expect(page.locator('html')).toHaveAttribute('data-app-running', '');
    expect(schemaChunks).toEqual([]);
    await page.getByRole('textbox', { name: 'Email' }).fill('not-an-address');
    await page.getByRole('textbox', { name: 'Email' }).blur();
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription(/.+/);
    expect(schemaChunks).not.toHaveLength(0);
  });

  test('a signed-in visitor is sent on from the login screen', async ({ page, user: _user }) => {
    await page.goto('/login');
    await expect(page).toHaveURL(/\/studio$/);
  });

  test('a reset link without its token says so once the app runs', async ({ page }) => {
    await page.goto('/reset-password');
    await page.locator('input[autocomplete="new-password"]').first().focus();
    await expect(page.getByRole('alert')).toHaveText('This reset link is incomplete: it carries no token.');
    await expect(page.getByRole('button', { name: 'Reset Password' })).toBeDisabled();
  });
});

test.describe('signed-in tabs', () => {
  /** What the console says is wrong: a frame the app cannot hydrate as it is would show here. */
  function recordConsoleErrors(page: Page): string[] {
    const errors: string[] = [];
    page.on('console', (message) => {
      // Not the page's: Chromium asks for /favicon.ico on signIn's plain-text page (robots.txt),
      // and that answer (a 404) can be logged after this listener is on.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    return errors;
  }

  test('paint their frame at once, then the app renders the tab', async ({ page, user: account }) => {
    const errors = recordConsoleErrors(page);
    const releaseApp = await holdApp(page);
    const response = await page.goto('/settings/profile');
    const markup = (await response?.text()) ?? '';
    expect(markup).toContain('<title>Settings | Data Platform</title>');
    expect(markup).not.toContain(account.email);
    // Before the app: the area's heading, its tabs and a loading line, nothing of the account.
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Subscription Plans' })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('Loading...');
    releaseApp();

    await expect(page.getByText(account.email)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toHaveCount(1);
    await expect(page).toHaveTitle('Settings | Data Platform');
    expect(errors).toEqual([]);
  });

  // Decision 056: each tab is a route module of its own, which the page preloads; its loader starts
  // the tab's data, and the tab's own query takes that answer instead of asking again.
  test("a tab's page brings the tab's code with it, and its data is asked for once", async ({ page, user: _user }) => {
    // The page's clock stands still (its timers still run): an answer stays fresh however slow this
    // host is, so the test sees the cache's rule, not the host's speed. With staleTime 0 it still fails.
    await page.clock.setFixedTime(Date.now());
    const asked: string[] = [];
    const askedForAccount: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname === '/api/v1/subscriptions/plans') asked.push(request.url());
      // The frame asks first; the tab that replaces it takes that answer rather than asking again.
      if (pathname === '/api/v1/users/me') askedForAccount.push(request.url());
    });
    const response = await page.goto('/settings/plans');
    const preloaded = [...((await response?.text()) ?? '').matchAll(/rel="modulepreload" href="([^"]+)"/g)].map(
      (match) => match[1] ?? '',
    );
    expect(preloaded.filter((href) => isChunk(href, 'plans'))).not.toHaveLength(0);
    await expect(page.getByRole('heading', { name: 'Subscription Plans' })).toBeVisible();
    await expect(page.getByText('Loading plans...')).toHaveCount(0);
    // Another tab and back within the answer's five seconds: it is still fresh.
    await page.getByRole('tab', { name: 'Password' }).click();
    await expect(page.getByRole('heading', { name: 'Change Password' })).toBeVisible();
    await page.getByRole('tab', { name: 'Subscription Plans' }).click();
    await expect(page.getByRole('heading', { name: 'Subscription Plans' })).toBeVisible();
    await expect(page.getByText('Loading plans...')).toHaveCount(0);
    expect(asked).toHaveLength(1);
    expect(askedForAccount).toHaveLength(1);
  });

  test('the danger zone is in its frame before the app, and works once the app runs', async ({ page, user: _user }) => {
    const errors = recordConsoleErrors(page);
    const releaseApp = await holdApp(page);
    await page.goto('/settings/danger-zone');
    await expect(page.getByRole('heading', { name: 'Delete Account' })).toBeVisible();
    await expect(page.getByText('This cannot be undone.', { exact: false })).toBeVisible();
    // Not usable before the app: a press would be lost.
    await expect(page.getByRole('button', { name: 'Delete' })).toBeDisabled();
    releaseApp();

    // The button now asks.
    await expect(page.getByRole('button', { name: 'Delete' })).toBeEnabled();
    await expect(page.getByRole('heading', { name: 'Delete Account' })).toHaveCount(1);
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('dialog', { name: 'Confirmation Required' })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 800 },
  ]) {
    test(`keep the footer just below the fold while a tab loads and once it is shown (${viewport.width} px)`, async ({
      page,
      createAccount,
      signIn,
    }) => {
      await page.setViewportSize(viewport);
      await signIn(page, await createAccount());
      const releaseApp = await holdApp(page);
      // Where the footer starts (its border), from the top of the page, less its own top margin: the
      // first screen ends there exactly. So the footer is never in view at load and a tab that grows
      // moves nothing the visitor sees; and a short tab leaves no blank screen to scroll through.
      const footerTop = async () =>
        page
          .getByRole('contentinfo')
          .evaluate(
            (footer) =>
              footer.getBoundingClientRect().top + window.scrollY - parseFloat(getComputedStyle(footer).marginTop),
          );
      await page.goto('/settings/danger-zone');
      await expect(page.getByRole('heading', { name: 'Delete Account' })).toBeVisible();
      expect(await footerTop()).toBeGreaterThanOrEqual(viewport.height);
      expect(await footerTop()).toBeLessThan(viewport.height + 1);
      releaseApp();
      await expect(page.getByRole('button', { name: 'Delete' })).toBeEnabled();
      expect(await footerTop()).toBeGreaterThanOrEqual(viewport.height);
      expect(await footerTop()).toBeLessThan(viewport.height + 1);
    });
  }

  test('on a narrow screen the frame shows the current tab in its strip before the app, and after', async ({
    page,
    createAccount,
    signIn,
  }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await signIn(page, await createAccount({ isSuperuser: true }));
    const releaseApp = await holdApp(page);
    // The last tab: at 360 px the strip's start shows only the first two or three.
    await page.goto('/admin/audit-log');
    const strip = page.getByRole('tablist', { name: 'Admin sections' });
    await expect(strip.getByRole('tab', { name: 'Audit Log', selected: true })).toBeVisible();
    /** Where the strip's scroll puts a tab: wholly inside its box, or wholly outside. */
    const placeOf = (name: string) =>
      strip.evaluate((element, tabName) => {
        const tab = [...element.querySelectorAll('[role="tab"]')].find((each) => each.textContent === tabName);
        // The box that scrolls: the list itself, or the nearest one around it that clips.
        let scroller: Element | null = element;
        while (scroller && getComputedStyle(scroller).overflowX === 'visible') scroller = scroller.parentElement;
        const box = (scroller ?? element).getBoundingClientRect();
        const { left, right } = tab!.getBoundingClientRect();
        // Centred to the pixel, not the subpixel.
        if (left >= box.left - 1 && right <= box.right + 1) return 'inside';
        return right <= box.left || left >= box.right ? 'outside' : 'cut';
      }, name);
    expect(await strip.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    expect(await placeOf('Audit Log')).toBe('inside');
    expect(await placeOf('Users')).toBe('outside');
    releaseApp();

    // The app keeps it there: its strip finds the tab already in view, and keeps it in view when a
    // tab before it grows (the Contacts tab's unread count, when other tests left messages).
    await expect(page.getByRole('heading', { name: 'Audit log', level: 2 })).toBeVisible();
    await expect.poll(() => placeOf('Audit Log')).toBe('inside');
  });

  test('an admin tab shows its frame, then works for a superuser', async ({ page, createAccount, signIn }) => {
    await signIn(page, await createAccount({ isSuperuser: true }));
    const errors = recordConsoleErrors(page);
    const classRules = await recordClassRules(page);
    // Every answer held back: the tab stays as it looks while its data loads, and the styles of that
    // came with the page, not only the frame's (what data brings, rows and counts, comes with it).
    let releaseAnswers: () => void = () => undefined;
    const answersHeld = new Promise<void>((resolve) => (releaseAnswers = resolve));
    await page.route(
      (url) => url.pathname.startsWith('/api/'),
      async (route) => {
        await answersHeld;
        await route.continue();
      },
    );
    await page.goto('/admin/roles');
    await expect(page.getByRole('button', { name: 'Add Role' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-app-running', '');
    expect(await classRules()).toEqual([]);
    releaseAnswers();
    await expect(page.getByRole('row').nth(1)).toBeVisible();
    await page.getByRole('tab', { name: 'Permissions', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/permissions$/);
    await expect(page.getByRole('button', { name: 'Add Permission' })).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('a showcase report paints its frame at once, then the report', async ({ page, createAccount, signIn }) => {
    const account = await createAccount();
    await signIn(page, account);
    const errors = recordConsoleErrors(page);
    const releaseApp = await holdApp(page);
    const response = await page.goto('/payer?code=99214');
    const markup = (await response?.text()) ?? '';
    expect(markup).toContain('<title>Negotiated rates by payer | Data Platform</title>');
    expect(markup).not.toContain(account.email);
    // Before the app: the site's top bar, the report's heading and description, its parameters and
    // its blocks down to the first chart, each loading (known for a built-in report), the footer out
    // of view (the report grows from there and moves nothing the visitor sees). Copy link waits for
    // the app: a press now would be lost.
    await expect(page.getByRole('region', { name: 'Median negotiated rate' }).getByRole('status')).toHaveText(
      'Running the query...',
    );
    await expect(page.getByRole('region', { name: 'Median rate by payer' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Data Platform home' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Negotiated rates by payer', level: 1 })).toBeVisible();
    await expect(page.getByText(/^In-network rates the payers negotiated/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Copy link' })).toBeDisabled();
    await expect(page.getByRole('contentinfo')).not.toBeInViewport();
    releaseApp();

    await expect(page.getByRole('button', { name: 'Copy link' })).toBeEnabled();
    await expect(page.getByRole('heading', { name: 'Negotiated rates by payer', level: 1 })).toHaveCount(1);
    await expect(page.getByRole('contentinfo')).not.toBeInViewport();
    // The parameters come from the URL, as on any report.
    await expect(page.getByRole('combobox', { name: 'Billing code' })).toHaveValue('99214');
    expect(errors).toEqual([]);
  });

  test('a showcase report shows the server’s drawing of its first chart before the app runs', async ({
    page,
    createAccount,
    signIn,
  }) => {
    await signIn(page, await createAccount());
    const errors = recordConsoleErrors(page);
    const releaseApp = await holdApp(page);
    await page.goto('/payer');
    // The page's first script asked for the drawing as the chart's box arrived (decision 064).
    const chart = page.getByRole('region', { name: 'Median rate by payer' });
    await expect(chart.getByRole('img').locator('svg')).toBeVisible({ timeout: 60_000 });
    await expect(chart.getByText('Drawing the chart...')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Copy link' })).toBeDisabled();
    const before = await chart.getByRole('img').boundingBox();
    releaseApp();

    await expect(page.getByRole('button', { name: 'Copy link' })).toBeEnabled();
    await expect(chart.getByRole('button', { name: 'View as table' })).toBeEnabled({ timeout: 60_000 });
    await expect(chart.getByRole('img').locator('svg')).toBeVisible();
    // The viewer took over where the frame was: the chart did not move.
    expect(await chart.getByRole('img').boundingBox()).toEqual(before);
    expect(errors).toEqual([]);
  });

  test('a showcase report draws its blocks with the styles its page brought', async ({
    page,
    createAccount,
    signIn,
  }) => {
    await signIn(page, await createAccount());
    const classRules = await recordClassRules(page);
    await page.goto('/payer');
    await expect(
      page.getByRole('region', { name: 'Median negotiated rate' }).getByText(/^\$[\d,]+\.\d\d$/),
    ).toBeVisible({
      timeout: 60_000,
    });
    await expect(page.getByText(/^1–25 of [\d,]+$/)).toBeVisible({ timeout: 60_000 });
    await expect(page.locator('[aria-label$="Use View as table to read its numbers."] svg').first()).toBeVisible();
    expect(await classRules()).toEqual([]);
  });

  test('send a signed-out visitor to the login screen', async ({ page }) => {
    for (const path of ['/admin/users', '/payer']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    }
    await page.goto('/admin/users');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Log In' })).toBeVisible();
  });
});
