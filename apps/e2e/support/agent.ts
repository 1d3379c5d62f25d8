import type { APIRequestContext, Page } from '@playwright/test';
import { type AdminApi, expect, screenshot, uniqueTag, type Named } from './admin.js';
import { apiLogin, type TestAccount } from './fixtures.js';

/*
 * The agent's specs' helpers: the scripted model server the suite starts (scripted-model.ts),
 * scripted per marker word over HTTP, and a person who may ask.
 */

function agentUrl(): string {
  const url = process.env.E2E_AGENT_URL;
  if (!url) throw new Error('E2E_AGENT_URL is not set: run the specs through playwright.config.ts');
  return url;
}

export async function script(marker: string, ...replies: object[]): Promise<void> {
  const response = await fetch(`${agentUrl()}/__script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ marker, replies }),
  });
  expect(response.status).toBe(204);
}

export async function scripted(
  marker: string,
): Promise<{ requests: { messages: { role: string; content: string }[] }[]; gone: number }> {
  return (await (await fetch(`${agentUrl()}/__script?marker=${marker}`)).json()) as {
    requests: { messages: { role: string; content: string }[] }[];
    gone: number;
  };
}

/** A plan over the demo data's rates: one measure by payer, drawn as bars. */
export const byPayer = (title: string) => ({
  kind: 'plan',
  title,
  source: 'demo',
  table: 'rates',
  measures: [{ agg: 'median', column: 'negotiated_rate', as: 'median_rate' }],
  dimensions: [{ column: 'payer', grain: null }],
  filters: [],
  sort: [{ by: 'median_rate', direction: 'desc' }],
  limit: 10,
  chart: 'bar',
});

/** A person who may use the agent and write reports, in a fresh tenant of theirs (selected). */
export async function arrangeAsker(
  page: Page,
  api: AdminApi,
  request: APIRequestContext,
  account: TestAccount,
): Promise<{ tenant: Named; token: string }> {
  await api.grant(account.id, ['agent:use', 'reports:write']);
  const tenant = await api.send<Named>('POST', '/tenants/', { name: uniqueTag('Agent '), status: 'active' });
  await api.send('PUT', `/tenants/${tenant.id}/members`, [account.id]);
  await page.evaluate((id) => localStorage.setItem('selectedTenantId', id), tenant.id);
  return { tenant, token: await apiLogin(request, account.email, account.password) };
}

export async function askOnPage(page: Page, question: string): Promise<void> {
  const box = page.getByRole('textbox', { name: /Your question|A follow-up question/ });
  await box.fill(question);
  await box.press('Enter');
}

export async function shoot(page: Page, name: string): Promise<void> {
  await screenshot(page, `agent-${name}`);
}
