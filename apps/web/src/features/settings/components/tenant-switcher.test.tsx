import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveApi } from '../../../test/api-server.js';
import { apiRequest } from '../../../lib/api-client.js';
import { clearSession, STORAGE_KEYS } from '../../../lib/session.js';
import { TenantSwitcher } from './tenant-switcher.js';

const ACME = {
  id: '00000000-0000-4000-8000-00000000000a',
  name: 'Acme Analytics',
  description: null,
  status: 'active',
};
const GLOBEX = { id: '00000000-0000-4000-8000-00000000000b', name: 'Globex', description: 'EU', status: 'active' };

/**
 * Answers the switcher's list with `tenants` and anything else with `{}`; records each call's
 * X-Tenant-ID. Like the server, it refuses (403) any call naming a tenant not in `tenants`.
 */
function serve(tenants: { id: string }[]) {
  const calls: { url: string; tenant: string | null }[] = [];
  serveApi(async (url, init) => {
    const tenant = new Headers(init.headers).get('X-Tenant-ID');
    calls.push({ url, tenant });
    if (tenant && !tenants.some((allowed) => allowed.id === tenant)) {
      return new Response(JSON.stringify({ detail: 'Not a member of this tenant' }), {
        status: 403,
        headers: { 'content-type': 'application/json' },
      });
    }
    const body = url.includes('/users/me/tenants') ? { data: tenants, count: tenants.length } : {};
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

describe('TenantSwitcher', () => {
  beforeEach(() => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token');
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify({ id: 'u1', is_superuser: false }));
  });
  afterEach(() => {
    // Also empties the shared query cache, as a logout does.
    clearSession();
    vi.unstubAllGlobals();
  });

  it('shows nothing for a user without tenants', async () => {
    const calls = serve([]);
    const { container } = render(<TenantSwitcher />);
    await waitFor(() => expect(calls.some((call) => call.url.includes('/users/me/tenants'))).toBe(true));
    expect(container).toBeEmptyDOMElement();
  });

  // The menu is a popover, which jsdom does not open: its items are found while hidden (the e2e spec
  // settings-tenant opens it in Chromium).
  const item = (name: string) => screen.getByRole('menuitemradio', { name, hidden: true });

  it('switches tenant: stored, named on the button, and sent as X-Tenant-ID from then on', async () => {
    const user = userEvent.setup();
    const calls = serve([ACME, GLOBEX]);
    render(<TenantSwitcher />);
    await user.click(await screen.findByRole('button', { name: 'Tenant: No tenant' }));
    expect(item('No tenant')).toHaveAttribute('aria-checked', 'true');
    await user.click(item('Globex'));

    expect(localStorage.getItem(STORAGE_KEYS.selectedTenantId)).toBe(GLOBEX.id);
    expect(await screen.findByRole('button', { name: 'Tenant: Globex' })).toBeVisible();
    await apiRequest({ path: '/users/me' });
    expect(calls.at(-1)).toEqual({ url: '/api/v1/users/me', tenant: GLOBEX.id });

    await user.click(screen.getByRole('button', { name: 'Tenant: Globex' }));
    expect(item('Globex')).toHaveAttribute('aria-checked', 'true');
    await user.click(item('No tenant'));
    expect(localStorage.getItem(STORAGE_KEYS.selectedTenantId)).toBeNull();
    expect(await screen.findByRole('button', { name: 'Tenant: No tenant' })).toBeVisible();
  });

  it('treats a stored tenant the user can no longer select as no tenant, and forgets it', async () => {
    localStorage.setItem(STORAGE_KEYS.selectedTenantId, '00000000-0000-4000-8000-0000000000ff');
    const calls = serve([ACME]);
    render(<TenantSwitcher />);
    expect(await screen.findByRole('button', { name: 'Tenant: No tenant' })).toBeVisible();
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.selectedTenantId)).toBeNull());
    // The list itself is asked for without the lost tenant, else the server would refuse it too.
    expect(calls.filter((call) => call.url.includes('/users/me/tenants'))).toEqual([
      { url: '/api/v1/users/me/tenants?limit=100', tenant: null },
    ]);
  });

  it('keeps a stored tenant that is still selectable', async () => {
    localStorage.setItem(STORAGE_KEYS.selectedTenantId, ACME.id);
    serve([ACME, GLOBEX]);
    render(<TenantSwitcher />);
    expect(await screen.findByRole('button', { name: 'Tenant: Acme Analytics' })).toBeVisible();
    expect(localStorage.getItem(STORAGE_KEYS.selectedTenantId)).toBe(ACME.id);
  });
});
