import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callsOf, recordRequests, server } from '../../../test/api-server.js';
import { QueryProvider } from '../../../lib/query-client.js';
import { STORAGE_KEYS } from '../../../lib/session.js';
import { resetSignedInState } from '../../../test/signed-in.js';
import { PermissionsTab } from './permissions-tab.js';
import { RolesTab } from './roles-tab.js';

const OWN_ID = '00000000-0000-4000-8000-000000000001';

function item(index: number, prefix: string) {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    name: `${prefix}_${index}`,
    description: null,
    created_by: OWN_ID,
    updated_by: OWN_ID,
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
  };
}

/**
 * Answers the list at `listPath` with two items once `gate` opens, and `GET /users/me` with
 * `me`; records every other call (none other is answered: the test fails on an unhandled request).
 */
function serve(listPath: string, prefix: string, me: () => Response, gate: Promise<void> = Promise.resolve()) {
  server.use(
    http.get(`*/api/v1${listPath}`, async () => {
      await gate;
      return HttpResponse.json({ data: [item(1, prefix), item(2, prefix)], count: 2 });
    }),
    http.get('*/api/v1/users/me', me),
  );
  const requests = recordRequests();
  return () =>
    callsOf(requests).filter((call) => !call.startsWith(`GET /api/v1${listPath}?`) && call !== 'GET /api/v1/users/me');
}

// The tabs inside the app's own query client, as the admin area shows them.
function renderTab(Tab: ComponentType) {
  render(
    <QueryProvider>
      <Tab />
    </QueryProvider>,
  );
}

describe('the Roles and Permissions tabs', () => {
  beforeEach(() => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token');
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify({ id: OWN_ID, is_superuser: true }));
  });
  afterEach(resetSignedInState);

  it('says "Loading roles..." until the roles arrive (ADM-ROLES-4)', async () => {
    let open = () => {};
    serve(
      '/authorization/roles',
      'role',
      () => HttpResponse.json({}),
      new Promise<void>((resolve) => (open = resolve)),
    );
    renderTab(RolesTab);
    const table = screen.getByRole('table');
    expect(await within(table).findByRole('status')).toHaveTextContent(/^Loading roles\.\.\.$/);
    expect(within(table).queryByText('role_1')).toBeNull();
    open();
    expect(await within(table).findByText('role_1')).toBeVisible();
    expect(within(table).queryByText('Loading roles...')).toBeNull();
  });

  it.each([
    ['Role', RolesTab, '/authorization/roles', 'role'],
    ['Permission', PermissionsTab, '/authorization/permissions', 'permission'],
  ] as const)(
    'refuses to create a %s with "User not authenticated" when the current user cannot be loaded (ADM-ROLES-5)',
    async (noun, Tab, listPath, prefix) => {
      const user = userEvent.setup();
      // The account is gone: /users/me answers 404 (a 401 would end the session instead).
      const others = serve(listPath, prefix, () =>
        HttpResponse.json({ detail: 'User not found', code: 'not_found' }, { status: 404 }),
      );
      renderTab(Tab);
      await screen.findByText(`${prefix}_1`);
      await user.click(screen.getByRole('button', { name: `Add ${noun}` }));
      const dialog = await screen.findByRole('dialog', { name: `Create New ${noun}` });
      // The form loads with the dialog (decision 030).
      await user.click(await within(dialog).findByRole('textbox', { name: /^Name/ }));
      await user.paste(`new_${prefix}`);
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));

      expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^User not authenticated$/);
      // Nothing was created.
      expect(others()).toEqual([]);
    },
  );
});
