import type { UserMe } from '@dataplatform/contract';
import { ThemeProvider } from '@mui/material/styles';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveApi } from '../../../test/api-server.js';
import { appTheme } from '../../../app/theme.js';
import { Toaster } from '../../../components/toaster.js';
import { getQueryClient, QueryProvider } from '../../../lib/query-client.js';
import { STORAGE_KEYS } from '../../../lib/session.js';
import { resetSignedInState } from '../../../test/signed-in.js';
import { resolvedStyle } from '../../../test/colors.js';
import { PlansTab } from './plans-tab.js';

function plan(index: number, name: string, price: string) {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    name,
    description: `The ${name} plan`,
    price,
    currency: 'usd',
    billing_period: 'monthly',
    features: [`${name} feature`],
    is_active: true,
    role_ids: [] as string[],
    roles: [] as { id: string; name: string }[],
    provider_price_id: null,
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
  };
}

const BASIC = plan(1, 'Basic', '9.00');
const PRO = plan(2, 'Pro', '49.00');
const ENTERPRISE = plan(3, 'Enterprise', '199.00');

const SUBSCRIPTION_TO_PRO = {
  id: '00000000-0000-4000-8000-0000000000aa',
  plan: PRO,
  status: 'active',
  current_period_start: '2026-11-01T10:00:00.000Z',
  current_period_end: '2026-12-01T10:00:00.000Z',
  cancel_at_period_end: false,
  canceled_at: null,
  created_at: '2026-11-01T10:00:00.000Z',
};

const SUPERUSER: UserMe = {
  id: '00000000-0000-4000-8000-0000000000f1',
  email: 'admin@example.com',
  full_name: 'Admin',
  is_active: true,
  is_superuser: true,
  email_verified: true,
  created_at: '2026-11-01T10:00:00.000Z',
  roles: [],
};

const serverError = () => Response.json({ detail: 'Internal Server Error' }, { status: 500 });

/**
 * Answers the tab's reads: `plans` (a Response for a failure), the subscription and the billing
 * config; every change is recorded and answered by `change`.
 */
function serve({
  plans = { data: [BASIC, PRO, ENTERPRISE], count: 3 },
  subscription = null,
  change = serverError,
}: { plans?: unknown; subscription?: unknown; change?: () => Response } = {}) {
  const changes: string[] = [];
  serveApi(async (url, init) => {
    const method = init.method ?? 'GET';
    if (method === 'GET' && url === '/api/v1/subscriptions/plans') {
      return plans instanceof Response ? plans : Response.json(plans);
    }
    if (method === 'GET' && url === '/api/v1/subscriptions/subscription') return Response.json(subscription);
    if (method === 'GET' && url === '/api/v1/subscriptions/config') {
      return Response.json({ provider: 'sandbox', publishable_key: null, currency: 'usd', sandbox_clock: true });
    }
    // The plan dialog's choice of roles.
    if (method === 'GET' && url.startsWith('/api/v1/authorization/roles')) return Response.json({ data: [], count: 0 });
    changes.push(`${method} ${url}`);
    return change();
  });
  return changes;
}

// The tab as the settings area shows it: the app's theme and query client, whose global handler
// turns a failed change into the toast the Toaster shows.
function tab(me: UserMe | undefined) {
  return (
    <MemoryRouter>
      <ThemeProvider theme={appTheme()}>
        <QueryProvider>
          <PlansTab me={me} />
          <Toaster />
        </QueryProvider>
      </ThemeProvider>
    </MemoryRouter>
  );
}

async function fillNewPlan(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Add Plan' }));
  // The form loads when the dialog opens (decision 030).
  const dialog = await screen.findByRole('dialog', { name: 'Add Plan' });
  await within(dialog).findByRole('textbox', { name: /^Name/ });
  const fields = { Name: 'Team', Description: 'For small teams', Price: '19.99', Features: 'Five seats' };
  for (const [label, value] of Object.entries(fields)) {
    await user.click(within(dialog).getByRole('textbox', { name: new RegExp(`^${label}`) }));
    await user.paste(value);
  }
  return dialog;
}

describe('PlansTab', () => {
  beforeEach(() => localStorage.setItem(STORAGE_KEYS.accessToken, 'token'));
  afterEach(resetSignedInState);

  it('marks the current plan with the chip and a highlight the other plans lack (SET-PLANS-2)', async () => {
    serve({ subscription: SUBSCRIPTION_TO_PRO });
    render(tab(undefined));
    const current = await screen.findByRole('listitem', { name: 'Pro' });
    expect(await within(current).findByText('Current Plan')).toBeVisible();
    // A tinted background the other plans lack, and a thicker border. (jsdom computes no border for
    // the others: it drops a shorthand holding a CSS variable, so only the tint is compared.)
    for (const name of ['Basic', 'Enterprise']) {
      const other = screen.getByRole('listitem', { name });
      expect(within(other).queryByText('Current Plan')).toBeNull();
      expect(resolvedStyle(current, 'background-color')).not.toBe(resolvedStyle(other, 'background-color'));
    }
    expect(resolvedStyle(current, 'border-top-width')).toBe('2px');
  });

  it('says "Error loading subscription plans. Please try again later." when the plans cannot be loaded (SET-PLANS-10)', async () => {
    // Not retried here: what is shown after the last retry is what is tested.
    getQueryClient().setQueryDefaults(['plans'], { retry: false });
    serve({ plans: serverError() });
    render(tab(undefined));
    expect(await screen.findByText('Error loading subscription plans. Please try again later.')).toBeVisible();
  });

  it('says "No subscription plans are available yet. Please check back later." when there are none (SET-PLANS-10)', async () => {
    serve({ plans: { data: [], count: 0 } });
    render(tab(undefined));
    expect(await screen.findByText('No subscription plans are available yet. Please check back later.')).toBeVisible();
  });

  it('says "Failed to create the plan" when the server refuses a new plan (SET-PLANS-10)', async () => {
    const user = userEvent.setup();
    const changes = serve();
    render(tab(SUPERUSER));
    const dialog = await fillNewPlan(user);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Failed to create the plan')).toBeInTheDocument();
    expect(changes).toEqual(['POST /api/v1/subscriptions/plans']);
    // The dialog stays open with what was typed.
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('Team');
  });

  it('says "Failed to cancel subscription" when the cancellation fails (SET-PLANS-10)', async () => {
    const user = userEvent.setup();
    const changes = serve({ subscription: SUBSCRIPTION_TO_PRO });
    render(tab(undefined));
    const current = await screen.findByRole('listitem', { name: 'Pro' });
    await user.click(await within(current).findByRole('button', { name: 'Cancel Subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Subscription' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Subscription' }));
    expect(await screen.findByText('Failed to cancel subscription')).toBeVisible();
    expect(changes).toEqual(['POST /api/v1/subscriptions/subscription/cancel']);
  });

  it('says "Failed to delete plan" when a plan cannot be deleted (SET-PLANS-10)', async () => {
    const user = userEvent.setup();
    const changes = serve();
    render(tab(SUPERUSER));
    await user.click(await screen.findByRole('button', { name: 'Delete plan Basic' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Plan' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete plan')).toBeVisible();
    expect(changes).toEqual([`DELETE /api/v1/subscriptions/plans/${BASIC.id}`]);
  });

  it('adds the server’s reason to "Failed to delete plan" for a refusal other than a plan in use (SET-PLANS-10)', async () => {
    const user = userEvent.setup();
    serve({ change: () => Response.json({ detail: 'Plan not found', code: 'not_found' }, { status: 404 }) });
    render(tab(SUPERUSER));
    await user.click(await screen.findByRole('button', { name: 'Delete plan Basic' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete Plan' })).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Failed to delete plan: Plan not found')).toBeVisible();
  });

  it('refuses to create a plan with "User not authenticated" when the account is no longer loaded (ADM-ROLES-5)', async () => {
    const user = userEvent.setup();
    const changes = serve();
    const { rerender } = render(tab(SUPERUSER));
    const dialog = await fillNewPlan(user);
    // The settings area lost the account (its query was emptied) while the dialog was open.
    rerender(tab(undefined));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^User not authenticated$/);
    expect(changes).toEqual([]);
  });

  it('grants roles: the dialog offers every role to choose several, sends role_ids, and the card lists them (PLAN-ROLES-1)', async () => {
    const user = userEvent.setup();
    const roles = [
      { id: '00000000-0000-4000-8000-0000000000c1', name: 'download_reports' },
      { id: '00000000-0000-4000-8000-0000000000c2', name: 'analyst' },
      { id: '00000000-0000-4000-8000-0000000000c3', name: 'auditor' },
    ];
    const granting = { ...PRO, role_ids: [roles[0]!.id], roles: [{ id: roles[0]!.id, name: 'download_reports' }] };
    const bodies: unknown[] = [];
    serveApi(async (url, init) => {
      const method = init.method ?? 'GET';
      if (method === 'GET' && url === '/api/v1/subscriptions/plans')
        return Response.json({ data: [granting], count: 1 });
      if (method === 'GET' && url === '/api/v1/subscriptions/subscription') return Response.json(null);
      if (method === 'GET' && url === '/api/v1/subscriptions/config') {
        return Response.json({ provider: 'sandbox', publishable_key: null, currency: 'usd', sandbox_clock: true });
      }
      if (method === 'GET' && url.startsWith('/api/v1/authorization/roles')) {
        return Response.json({ data: roles.map((role) => ({ ...role, description: null })), count: roles.length });
      }
      bodies.push({ method, url, body: JSON.parse(init.body as string) as unknown });
      return Response.json(granting, { status: method === 'POST' ? 201 : 200 });
    });
    render(tab(SUPERUSER));

    const card = await screen.findByRole('listitem', { name: 'Pro' });
    expect(within(within(card).getByRole('list', { name: 'Pro roles' })).getByText(/download_reports/)).toBeVisible();

    // Editing shows the plan's roles chosen.
    await user.click(screen.getByRole('button', { name: 'Edit plan Pro' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Plan' });
    const editRoles = await within(edit).findByRole('combobox', { name: /^Roles granted while subscribed/ });
    // The chosen roles are chips beside the field; the list offers every role with the chosen ones marked.
    expect(within(edit).getByRole('button', { name: 'download_reports' })).toBeVisible();
    await user.click(editRoles);
    const offered = await screen.findByRole('listbox');
    expect(within(offered).getByRole('option', { name: 'download_reports' })).toHaveAttribute('aria-selected', 'true');
    expect(within(offered).getByRole('option', { name: 'analyst' })).toHaveAttribute('aria-selected', 'false');
    await user.keyboard('{Escape}');
    await user.click(within(edit).getByRole('button', { name: 'Cancel' }));

    const dialog = await fillNewPlan(user);
    const field = await within(dialog).findByRole('combobox', { name: /^Roles granted while subscribed/ });
    await user.click(field);
    await user.click(await screen.findByRole('option', { name: 'analyst' }));
    await user.click(screen.getByRole('option', { name: 'auditor' }));
    await user.keyboard('{Escape}');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await vi.waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({
      method: 'POST',
      url: '/api/v1/subscriptions/plans',
      body: { name: 'Team', features: ['Five seats'], role_ids: [roles[1]!.id, roles[2]!.id] },
    });
  });

  it('sends an empty role_ids when no role is chosen (PLAN-ROLES-1)', async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    serveApi(async (url, init) => {
      const method = init.method ?? 'GET';
      if (method === 'GET' && url === '/api/v1/subscriptions/plans') return Response.json({ data: [], count: 0 });
      if (method === 'GET' && url === '/api/v1/subscriptions/subscription') return Response.json(null);
      if (method === 'GET' && url === '/api/v1/subscriptions/config') {
        return Response.json({ provider: 'sandbox', publishable_key: null, currency: 'usd', sandbox_clock: true });
      }
      if (method === 'GET' && url.startsWith('/api/v1/authorization/roles'))
        return Response.json({ data: [], count: 0 });
      bodies.push(JSON.parse(init.body as string) as unknown);
      return Response.json(BASIC, { status: 201 });
    });
    render(tab(SUPERUSER));
    const dialog = await fillNewPlan(user);
    await within(dialog).findByRole('combobox', { name: /^Roles granted while subscribed/ });
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await vi.waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ role_ids: [] });
  });
});
