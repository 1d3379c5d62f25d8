import { randomUUID } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the specs through playwright.config.ts (its globalSetup)`);
  return value;
}

export interface TestAccount {
  id: string;
  email: string;
  password: string;
  fullName: string;
  isSuperuser: boolean;
}

/** The marketing pages (the contact page among them), each with its first heading. */
export const MARKETING_PAGES = [
  ['/studio', 'AI-assisted full-stack coding and business-intelligence reporting'],
  ['/about-us', 'We turn very large data into reports people trust'],
  ['/data-engineering', 'Data engineering and analytics consulting'],
  ['/high-scale-tableau', 'High-scale Tableau deployments'],
  ['/transparency-pipeline', 'A price-transparency data pipeline for healthcare'],
  ['/contact', 'Contact Us'],
] as const;

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

/**
 * A client address from the documentation range (RFC 5737) for one API login or one browser: the
 * server trusts the proxy header in the specs, so each counts against limits of its own, as separate
 * people's would. Only a header: nothing is sent to that address.
 */
export function documentationAddress(): string {
  return `203.0.113.${1 + Math.floor(Math.random() * 254)}`;
}

/** A form-body login over the API, as the web app does it; answers the access token. */
export async function apiLogin(request: APIRequestContext, email: string, password: string): Promise<string> {
  const response = await request.post('/api/v1/login/access-token', {
    form: { username: email, password },
    headers: { 'x-forwarded-for': documentationAddress() },
  });
  expect(response.status(), `login of ${email}`).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * Signs up through the form as a visitor would, then logs in with the new account from the login
 * screen it lands on; login goes to /, which is the Studio product page.
 */
export async function signUpAndLogIn(
  page: Page,
  { fullName, email, password }: { fullName: string; email: string; password: string },
): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Full Name').fill(fullName);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Log In' })).toBeVisible();

  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/studio$/);
}

export interface WorkerFixtures {
  adminToken: string;
}

export interface TestFixtures {
  /** Creates an account through the admin API (no signup rate limit, no UI). */
  createAccount: (options?: { isSuperuser?: boolean }) => Promise<TestAccount>;
  /** Puts a signed-in session for `account` into the page's storage, as a login would. */
  signIn: (page: Page, account: TestAccount) => Promise<void>;
  /** A fresh plain account (no superuser), signed in on `page`. */
  user: TestAccount;
  /** A fresh superuser, signed in on `page`. */
  admin: TestAccount;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  // Playwright reads fixture dependencies from this destructuring, so it must stay (empty).
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    await use(requiredEnv('E2E_BASE_URL'));
  },
  adminToken: [
    async ({ playwright }, use) => {
      const request = await playwright.request.newContext({ baseURL: requiredEnv('E2E_BASE_URL') });
      const token = await apiLogin(request, requiredEnv('E2E_SUPERUSER_EMAIL'), requiredEnv('E2E_SUPERUSER_PASSWORD'));
      await request.dispose();
      await use(token);
    },
    { scope: 'worker' },
  ],
  createAccount: async ({ request, adminToken }, use) => {
    await use(async ({ isSuperuser = false } = {}) => {
      const account = {
        email: uniqueEmail(isSuperuser ? 'admin' : 'user'),
        password: `pw-${randomUUID()}`,
        fullName: isSuperuser ? 'Ada Admin' : 'Paul Plain',
        isSuperuser,
      };
      const response = await request.post('/api/v1/users/', {
        headers: { authorization: `Bearer ${adminToken}` },
        data: {
          email: account.email,
          password: account.password,
          full_name: account.fullName,
          is_active: true,
          is_superuser: isSuperuser,
        },
      });
      expect(response.status(), await response.text()).toBe(201);
      const { id } = (await response.json()) as { id: string };
      return { ...account, id };
    });
  },
  signIn: async ({ request }, use) => {
    await use(async (page, account) => {
      const token = await apiLogin(request, account.email, account.password);
      await page.goto('/robots.txt');
      await page.evaluate(
        ([accessToken, user]) => {
          localStorage.setItem('access_token', accessToken);
          localStorage.setItem('user', user);
        },
        [token, JSON.stringify({ id: account.id, email: account.email, is_superuser: account.isSuperuser })] as const,
      );
    });
  },
  user: async ({ page, createAccount, signIn }, use) => {
    const account = await createAccount();
    await signIn(page, account);
    await use(account);
  },
  admin: async ({ page, createAccount, signIn }, use) => {
    const account = await createAccount({ isSuperuser: true });
    await signIn(page, account);
    await use(account);
  },
});

export { expect };

/**
 * The bound of a test that walks many pages or steps (axe on every tab, a whole sign-in flow). Such a
 * walk took 1.2-1.7 min on a slow host under CI's load and once 2.1: a bound of 5 min keeps a slow
 * moment from reading as a failure, while a stuck step still fails on its own assertion's timeout.
 */
export const LONG_WALK_TIMEOUT_MS = 300_000;

/**
 * axe must find no serious or critical violation on the page as it stands, once its finite CSS
 * transitions and animations have ended: a colour caught mid-transition is not what a person reads.
 */
export async function expectNoSeriousA11yViolations(page: Page, label: string): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
  expect(serious, `${label}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}
