import { mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test as base } from './fixtures.js';

/** A PostgreSQL server the tenant checks can reach (here and in CI). */
export const TENANT_DB_URL = process.env.E2E_TENANT_DB_URL ?? 'postgresql://dp_test:dp_test@127.0.0.1:5432/postgres';

/** Screenshots for a person to look at (never compared); the folder is made by the specs that write there. */
export const SHOTS_DIR = process.env.E2E_SHOTS_DIR ?? '/tmp/shots';

export const GLOBAL_403_TEXT = 'You do not have permission to perform this action';

/** A short random tag that makes a spec's records findable with the users search. */
export function uniqueTag(prefix = 't'): string {
  return `${prefix}${randomUUID().replaceAll('-', '').slice(0, 10)}`;
}

interface AdminFixtures {
  /** Calls the API as the e2e superuser. */
  api: AdminApi;
}

/**
 * The specs' `test`: every answer of 500 or more the page receives fails the test (no 500 during
 * the run), and `api` calls the API as the e2e superuser (`admin`, a fresh signed-in superuser, is
 * a base fixture).
 */
export const test = base.extend<AdminFixtures>({
  page: async ({ page }, use) => {
    const serverErrors: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 500) serverErrors.push(`${response.status()} ${response.url()}`);
    });
    await use(page);
    expect(serverErrors, 'server errors seen by the page').toEqual([]);
  },
  api: async ({ request, adminToken }, use) => {
    await use(new AdminApi(request, adminToken));
  },
});

export { expect };

export interface Named {
  id: string;
  name: string;
}

/** The admin API, for arranging records and reading results back. */
export class AdminApi {
  constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  private get headers() {
    return { authorization: `Bearer ${this.token}` };
  }

  async send<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, data?: unknown): Promise<T> {
    const response = await this.request.fetch(`/api/v1${path}`, {
      method,
      headers: this.headers,
      ...(data === undefined ? {} : { data }),
    });
    expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
    return (response.status() === 204 ? undefined : await response.json()) as T;
  }

  async createUser(email: string, fullName: string | null = null): Promise<{ id: string; email: string }> {
    return this.send('POST', '/users/', { email, password: `pw-${randomUUID()}`, full_name: fullName });
  }

  async createRole(name: string, description = `Role ${name}`): Promise<Named> {
    return this.send('POST', '/authorization/roles', { name, description });
  }

  /** Gives `userId` the seeded permissions named, through a new role of theirs. */
  async grant(userId: string, permissionNames: readonly string[]): Promise<Named> {
    const role = await this.createRole(uniqueTag('grant'));
    const permissions = await this.send<{ data: Named[] }>('GET', '/authorization/permissions?limit=1000');
    for (const name of permissionNames) {
      const permission = permissions.data.find((candidate) => candidate.name === name);
      expect(permission, `the ${name} permission is seeded`).toBeDefined();
      await this.send('POST', '/authorization/role-permission', { role_id: role.id, permission_id: permission!.id });
    }
    await this.send('POST', '/authorization/user-role', { user_id: userId, role_id: role.id });
    return role;
  }

  async createPermission(name: string, description = `Permission ${name}`): Promise<Named> {
    return this.send('POST', '/authorization/permissions', { name, description });
  }

  async rolesOfUser(userId: string): Promise<string[]> {
    const roles = await this.send<{ data: Named[] }>('GET', `/authorization/user/${userId}/roles`);
    return roles.data.map((role) => role.name).sort();
  }

  async permissionsOfRole(roleId: string): Promise<string[]> {
    const permissions = await this.send<{ data: Named[] }>('GET', `/authorization/role/${roleId}/permissions`);
    return permissions.data.map((permission) => permission.name).sort();
  }

  async tenantByName(name: string): Promise<{ id: string; name: string; dburl: string | null } | undefined> {
    const tenants = await this.send<{ data: { id: string; name: string; dburl: string | null }[] }>(
      'GET',
      '/tenants/?limit=1000',
    );
    return tenants.data.find((tenant) => tenant.name === name);
  }
}

/** Opens an admin tab by clicking it, as a person would. */
/** Writes a report of `definition` through the API with `token`, in `tenantId`; fails unless it is created. */
export async function createReport(
  request: APIRequestContext,
  token: string,
  tenantId: string,
  definition: string,
): Promise<{ id: string; slug: string }> {
  const created = await request.post('/api/v1/studio/reports', {
    headers: { authorization: `Bearer ${token}`, 'x-tenant-id': tenantId },
    data: { definition },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()) as { id: string; slug: string };
}

/** Opens a report in `page`'s signed-in session, in the report's tenant (selected), and waits for its title. */
export async function openReport(page: Page, tenantId: string, slug: string, title: string): Promise<void> {
  await page.evaluate((id) => localStorage.setItem('selectedTenantId', id), tenantId);
  await page.goto(`/studio/reports/${slug}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

export async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
  await expect(page.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
}

/** The row naming `text` in a client-paged table (roles, permissions), paging forward until it shows. */
export async function findRow(page: Page, table: Locator, text: string): Promise<Locator> {
  const row = table.getByRole('row').filter({ hasText: text });
  const next = page.getByRole('button', { name: 'Go to next page' });
  // The pager's "1–10 of 23" (components/data-table.tsx Pager): it changes once the next page is shown.
  const range = page.getByText(/^[\d,]+–[\d,]+ of [\d,]+$/).first();
  await expect(table.getByRole('row').nth(1)).not.toContainText('Loading');
  for (;;) {
    if ((await row.count()) > 0) return row;
    if ((await next.count()) === 0 || (await next.isDisabled())) break;
    const before = await range.textContent();
    expect(before, 'the pager says which rows are shown').toMatch(/ of /);
    await next.click();
    await expect(range).not.toHaveText(before!);
  }
  throw new Error(`no row with "${text}"`);
}

/**
 * Deletes a row of an admin table as a person does, with the texts every admin deletion has: the
 * row's "Delete <noun> <name>" button, the "Delete <Noun>" dialog and its question, Delete, then the
 * "<Noun> deleted successfully" toast and the dialog gone.
 */
export async function deleteRow(page: Page, row: Locator, noun: string, name: string): Promise<void> {
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  await row.getByRole('button', { name: `Delete ${noun} ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete ${Noun}` });
  await expect(dialog).toContainText(
    `Are you sure you want to delete the ${noun} "${name}"? This action cannot be undone.`,
  );
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, `${Noun} deleted successfully`)).toBeVisible();
  await expect(dialog).toHaveCount(0);
}

/** The toast with this text. */
export function toast(page: Page, text: string): Locator {
  return page.getByRole('alert').filter({ hasText: text });
}

/** A full-page screenshot named for what it shows, the viewport's width and the colour scheme. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const scheme = await page.evaluate(() => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  await page.screenshot({ path: `${SHOTS_DIR}/${name}-${width}-${scheme}.png`, fullPage: true });
}
