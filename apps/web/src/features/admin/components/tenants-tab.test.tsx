import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { servePagedList, urlsOf } from '../../../test/api-server.js';
import { backgroundColourName } from '../../../test/colors.js';
import { renderInApp, storeSignedInUser } from '../../../test/render-in-app.js';
import { resetSignedInState } from '../../../test/signed-in.js';
import { TenantsTab } from './tenants-tab.js';

function tenant(index: number, overrides: Record<string, unknown> = {}) {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    name: `Tenant ${index}`,
    description: `Customer ${index}`,
    status: 'active',
    dburl: `postgresql://app:****@db${index}.example.com:5432/app`,
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

/**
 * Answers `GET /api/v1/tenants/` from `all`, honouring skip and limit, once `gate` opens; records
 * every URL.
 */
function serveTenants(all: unknown[], gate: Promise<void> = Promise.resolve()) {
  return servePagedList('/tenants/', all, gate);
}

const renderTab = () => renderInApp(<TenantsTab />);

describe('TenantsTab', () => {
  beforeEach(() => storeSignedInUser({ id: 'admin', is_superuser: true }));
  // Also empties the shared query cache, as a logout does.
  afterEach(resetSignedInState);

  it('says "Loading tenants..." until the first page arrives (ADM-TENANTS-5)', async () => {
    let open = () => {};
    serveTenants([tenant(1)], new Promise<void>((resolve) => (open = resolve)));
    renderTab();
    const table = screen.getByRole('table');
    expect(await within(table).findByRole('status')).toHaveTextContent(/^Loading tenants\.\.\.$/);
    open();
    expect(await within(table).findByText('Tenant 1')).toBeVisible();
    expect(within(table).queryByText('Loading tenants...')).toBeNull();
  });

  it('shows the ADM-TENANTS-1 columns: a green chip when active, red otherwise, "inactive" when missing, a dash for no URL', async () => {
    serveTenants([
      tenant(1),
      tenant(2, { status: 'inactive', dburl: null }),
      tenant(3, { status: null, description: null }),
    ]);
    renderTab();
    const table = screen.getByRole('table');
    await within(table).findByText('Tenant 1');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Description', 'Status', 'Database URL', 'Actions']);
    const [, active, inactive, missing] = within(table).getAllByRole('row');
    expect(active).toHaveTextContent('Tenant 1Customer 1activepostgresql://app:****@db1.example.com:5432/app');
    expect(inactive).toHaveTextContent('Tenant 2Customer 2inactive-');
    expect(missing).toHaveTextContent('Tenant 3-inactive');
    expect(backgroundColourName(within(active!).getByText('active'))).toBe('green');
    expect(backgroundColourName(within(inactive!).getByText('inactive'))).toBe('red');
    expect(backgroundColourName(within(missing!).getByText('inactive'))).toBe('red');
  });

  it('asks the server for ten tenants a page (ADM-TENANTS-4)', async () => {
    const user = userEvent.setup();
    const requests = serveTenants(Array.from({ length: 25 }, (_, index) => tenant(index + 1)));
    renderTab();
    const table = screen.getByRole('table');
    await within(table).findByText('Tenant 10');
    expect(urlsOf(requests)).toEqual(['/api/v1/tenants/?skip=0&limit=10']);
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText('1–10 of 25')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await within(table).findByText('Tenant 11')).toBeVisible();
    expect(urlsOf(requests).at(-1)).toBe('/api/v1/tenants/?skip=10&limit=10');
    expect(screen.getByText('11–20 of 25')).toBeVisible();
  });
});
