import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, MARKETING_PAGES, test } from '../support/fixtures.js';

/** Every screen the other specs walk, with what shows it is ready. */
const PUBLIC_PAGES = [
  ...MARKETING_PAGES,
  ['/login', 'Log In'],
  ['/signup', 'Sign Up'],
  ['/recover-password', 'Password Recovery'],
  ['/reset-password?token=abc', 'Reset Password'],
  ['/no-such-page', 'Oops!'],
] as const;

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`in the ${scheme} theme`, () => {
    test.use({ colorScheme: scheme });

    for (const [path, heading] of PUBLIC_PAGES) {
      test(`axe finds no serious or critical violation on ${path}`, async ({ page }) => {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${scheme}\\b`));
        await expectNoSeriousA11yViolations(page, `${path} (${scheme})`);
      });
    }

    test('axe finds no serious or critical violation with errors, menus and drawer open', async ({ page }) => {
      await page.goto('/signup');
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await expect(page.getByLabel('Full Name')).toHaveAccessibleDescription('Full Name is required');
      await expectNoSeriousA11yViolations(page, `signup with errors (${scheme})`);

      await page.goto('/contact');
      await page.getByRole('button', { name: 'Send Message' }).click();
      await expect(page.getByLabel('Name')).toHaveAccessibleDescription('Name must be at least 2 characters');
      await expectNoSeriousA11yViolations(page, `contact with errors (${scheme})`);

      await page.getByRole('button', { name: 'Solutions & Services' }).click();
      await expect(page.getByRole('menuitem', { name: 'Data Engineering' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `open menu (${scheme})`);
      await page.keyboard.press('Escape');

      await page.setViewportSize({ width: 390, height: 800 });
      await page.getByRole('button', { name: 'open navigation menu' }).click();
      await expect(page.getByRole('navigation', { name: 'Site navigation' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `drawer (${scheme})`);
    });

    test('axe finds no serious or critical violation in the signed-in areas', async ({
      page,
      createAccount,
      signIn,
    }) => {
      await signIn(page, await createAccount({ isSuperuser: true }));
      for (const [path, heading] of [
        ['/settings', 'Settings'],
        ['/admin', 'Admin Dashboard'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await expectNoSeriousA11yViolations(page, `${path} (${scheme})`);
      }
    });
  });
}

/** The ring keyboard focus draws on an element: its outline, the platform's `:focus-visible` one. */
function focusRing(page: Page) {
  return page.evaluate(() => {
    const focused = document.activeElement as HTMLElement;
    const style = getComputedStyle(focused);
    return {
      name: focused.getAttribute('aria-label') ?? focused.textContent?.trim(),
      // `auto` is the browser's own ring (links); our buttons draw a solid 2 px one.
      ringShown: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0,
    };
  });
}

test('every control the keyboard reaches in the top bar shows where focus is, before any script runs', async ({
  page,
}) => {
  // A marketing page runs no app script, so MUI's focus ripple cannot mark keyboard focus there.
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    await page.keyboard.press('Tab'); // the skip link
    const reached: string[] = [];
    for (let step = 0; step < 6; step++) {
      await page.keyboard.press('Tab');
      const { name, ringShown } = await focusRing(page);
      reached.push(`${name}`);
      expect(ringShown, `focus ring on "${name}" at ${width} px`).toBe(true);
      if (name === 'account menu') break;
    }
    expect(reached).toContain(width === 390 ? 'open navigation menu' : 'Platform');
    expect(reached).toContain('toggle light and dark theme');
  }
});

test('a press shows on the control by CSS alike where the app runs and where it does not', async ({ page }) => {
  /** The press tint of `name`'s button while the pointer is held on it, and whether a ripple was drawn. */
  async function pressed(name: string) {
    const button = page.getByRole('button', { name, exact: true }).first();
    const box = await button.boundingBox();
    if (!box) throw new Error(`${name} is not on screen`);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    const seen = await button.evaluate((element) => ({
      tint: getComputedStyle(element).backgroundImage,
      // MUI's ripple is a child span it adds under the pointer.
      rippleChildren: element.querySelectorAll('[class*="Ripple"]').length,
    }));
    await page.mouse.up();
    return seen;
  }
  // /about-us runs no app script; /login runs the app.
  await page.goto('/about-us');
  const onStaticPage = await pressed('toggle light and dark theme');
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('data-app-running', '');
  const inApp = await pressed('toggle password visibility');
  for (const seen of [onStaticPage, inApp]) {
    expect(seen.tint).toContain('gradient');
    expect(seen.rippleChildren).toBe(0);
  }
});
