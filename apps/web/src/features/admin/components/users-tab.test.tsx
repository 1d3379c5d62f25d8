import { twoFactorMessages } from '@dataplatform/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callsOf, recordRequests, servePagedList, server, urlsOf } from '../../../test/api-server.js';
import { Toaster } from '../../../components/toaster.js';
import { STORAGE_KEYS } from '../../../lib/session.js';
import { UsersTab } from './users-tab.js';

const OWN_ID = '00000000-0000-4000-8000-000000000001';

function user(index: number, overrides: Record<string, unknown> = {}) {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    email: `person${index}@example.com`,
    full_name: index % 2 === 0 ? `Person ${index}` : null,
    is_active: index !== 3,
    is_superuser: index === 1,
    created_at: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}

/**
 * Answers `GET /api/v1/users/` from 25 users, honouring skip and limit, once `gate` opens; records
 * every URL.
 */
function serveUsers(gate: Promise<void> = Promise.resolve()) {
  const all = Array.from({ length: 25 }, (_, index) => user(index + 1));
  return servePagedList('/users/', all, gate);
}

function renderTab() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <UsersTab />
      <Toaster />
    </QueryClientProvider>,
  );
}

describe('UsersTab', () => {
  beforeEach(() => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token');
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify({ id: OWN_ID, is_superuser: true }));
  });
  afterEach(() => localStorage.clear());

  it('says "Loading users..." until the first page arrives, then shows it with the ADM-USERS-1 columns', async () => {
    let open = () => {};
    const requests = serveUsers(new Promise<void>((resolve) => (open = resolve)));
    renderTab();
    expect(await screen.findByText('Loading users...')).toBeInTheDocument();
    open();
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(await within(table).findByText('person2@example.com')).toBeInTheDocument();
    expect(urlsOf(requests)[0]).toBe('/api/v1/users/?skip=0&limit=10');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Email', 'Full Name', 'Status', 'Role', 'Actions']);
    const first = within(table).getAllByRole('row')[1]!;
    // Own row: marked, its Delete explains why it is not allowed.
    expect(first).toHaveTextContent('person1@example.com (you)-ActiveAdmin');
    expect(within(first).getByRole('button', { name: 'Delete user person1@example.com' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(within(table).getAllByRole('row')[3]).toHaveTextContent('person3@example.com-InactiveUser');
    expect(screen.getByText('1–10 of 25')).toBeInTheDocument();
  });

  it('asks the server for the next page and for a search', async () => {
    const requests = serveUsers();
    renderTab();
    await screen.findByText('person1@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText('11–20 of 25')).toBeInTheDocument();
    expect(urlsOf(requests).at(-1)).toBe('/api/v1/users/?skip=10&limit=10');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search users' }), ' Ada ');
    await vi.waitFor(() => expect(urlsOf(requests).at(-1)).toBe('/api/v1/users/?skip=0&limit=10&q=Ada'));
  });

  it('keeps Create disabled until email and password are filled, and says so', async () => {
    serveUsers();
    renderTab();
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New User' });
    // The form loads with the dialog (decision 030).
    const create = await within(dialog).findByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    expect(create).toHaveAccessibleDescription('Email and password are required');
    expect(within(dialog).getByRole('checkbox', { name: 'Active' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Admin' })).not.toBeChecked();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'new@example.com');
    expect(create).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText(/^Password/), 'long-enough-1');
    expect(create).toBeEnabled();
    expect(within(dialog).queryByText('Email and password are required')).not.toBeInTheDocument();
  });

  it('signs a user out everywhere after asking, and says how many sessions ended', async () => {
    const all = [user(1), user(2)];
    server.use(
      http.post('*/api/v1/users/:id/sessions/revoke', () => HttpResponse.json({ revoked: 3 })),
      http.get('*/api/v1/users/', () => HttpResponse.json({ data: all, count: all.length })),
    );
    const requests = recordRequests();
    const calls = () => callsOf(requests).map((call) => call.replace(/\?.*/, ''));
    renderTab();
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out user person2@example.com everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign Out Everywhere' });
    expect(dialog).toHaveTextContent('Sign "person2@example.com" out of every browser?');
    expect(calls().filter((call) => call.startsWith('POST'))).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('person2@example.com is signed out everywhere (3 sessions ended)')).toBeVisible();
    expect(calls()).toContain(`POST /api/v1/users/${user(2).id}/sessions/revoke`);
  });

  it('resets a lost second factor after asking, but never on the own row', async () => {
    const all = [user(1, { id: OWN_ID }), user(2)];
    server.use(
      http.post('*/api/v1/users/:id/two-factor/reset', () => HttpResponse.json({ message: 'done' })),
      http.get('*/api/v1/users/', () => HttpResponse.json({ data: all, count: all.length })),
    );
    const requests = recordRequests();
    const calls = () => callsOf(requests).map((call) => call.replace(/\?.*/, ''));
    renderTab();
    const own = await screen.findByRole('button', {
      name: 'Reset two-factor authentication of user person1@example.com',
    });
    expect(own).toHaveAttribute('aria-disabled', 'true');
    expect(own).toHaveAccessibleDescription(twoFactorMessages.resetOwn);
    await userEvent.click(own);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await userEvent.click(
      screen.getByRole('button', { name: 'Reset two-factor authentication of user person2@example.com' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Reset Two-Factor Authentication' });
    expect(dialog).toHaveTextContent('Turn off two-factor authentication for "person2@example.com"');
    expect(calls().filter((call) => call.startsWith('POST'))).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(
      await screen.findByText(
        'Two-factor authentication is off for person2@example.com; they are signed out everywhere',
      ),
    ).toBeVisible();
    expect(calls()).toEqual([expect.any(String), `POST /api/v1/users/${user(2).id}/two-factor/reset`]);
  });

  it("sends a superuser's own locked Active and Admin boxes as they are when they rename themselves", async () => {
    const own = user(1, { id: OWN_ID, full_name: 'Ada' });
    const patches: unknown[] = [];
    server.use(
      http.patch('*/api/v1/users/:id', async ({ request }) => {
        patches.push(await request.json());
        return HttpResponse.json({ ...own, full_name: 'Ada Self' });
      }),
      http.get('*/api/v1/users/', () => HttpResponse.json({ data: [own], count: 1 })),
    );
    renderTab();
    await userEvent.click(await screen.findByRole('button', { name: `Edit user ${own.email}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    const admin = await within(dialog).findByRole('checkbox', { name: 'Admin' });
    expect(admin).toBeDisabled();
    expect(admin).toBeChecked();
    const name = within(dialog).getByRole('textbox', { name: 'Full Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Ada Self');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('User updated successfully')).toBeVisible();
    expect(patches).toEqual([expect.objectContaining({ full_name: 'Ada Self', is_active: true, is_superuser: true })]);
  });
});
