import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { callsOf, recordRequests, server } from '../../../test/api-server.js';
import { Toaster } from '../../../components/toaster.js';
import { QueryProvider } from '../../../lib/query-client.js';
import { STORAGE_KEYS } from '../../../lib/session.js';
import { resetSignedInState } from '../../../test/signed-in.js';
import { PaymentMethodsTab } from './payment-methods-tab.js';

const DEFAULT_CARD = {
  id: '00000000-0000-4000-8000-000000000001',
  provider_payment_method_id: 'pm_1',
  card_type: 'visa',
  last_four: '4242',
  expiry_month: 12,
  expiry_year: 2035,
  is_default: true,
  created_at: '2026-11-01T10:00:00.000Z',
};
const OTHER_CARD = {
  ...DEFAULT_CARD,
  id: '00000000-0000-4000-8000-000000000002',
  last_four: '5555',
  is_default: false,
};

/** Lists two saved cards and answers every change with `failure`. */
function serveCards(failure: () => Response) {
  server.use(
    http.get('*/api/v1/subscriptions/payment-methods', () =>
      HttpResponse.json({ data: [DEFAULT_CARD, OTHER_CARD], count: 2 }),
    ),
    http.all('*/api/v1/subscriptions/payment-methods/*', failure),
  );
  const requests = recordRequests();
  return () => callsOf(requests).filter((call) => call !== 'GET /api/v1/subscriptions/payment-methods');
}

// The tab inside the app's own query client, whose global handler turns a failed change into the
// toast the Toaster shows.
function renderTab() {
  render(
    <QueryProvider>
      <PaymentMethodsTab />
      <Toaster />
    </QueryProvider>,
  );
}

const serverError = () => Response.json({ detail: 'Internal Server Error' }, { status: 500 });

describe('PaymentMethodsTab failures (SET-CARDS-5)', () => {
  beforeEach(() => localStorage.setItem(STORAGE_KEYS.accessToken, 'token'));
  afterEach(resetSignedInState);

  it('says "Failed to delete payment method" when a card cannot be deleted, and keeps it', async () => {
    const user = userEvent.setup();
    const changes = serveCards(serverError);
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'Delete card ending in 5555' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Payment Method' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to delete payment method$/);
    expect(changes()).toEqual([`DELETE /api/v1/subscriptions/payment-methods/${OTHER_CARD.id}`]);
    expect(screen.getByText('•••• 5555')).toBeVisible();
  });

  it('says "Failed to update default payment method" when a card cannot be made the default', async () => {
    const user = userEvent.setup();
    const changes = serveCards(serverError);
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'Set as Default' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to update default payment method$/);
    expect(changes()).toEqual([`POST /api/v1/subscriptions/payment-methods/${OTHER_CARD.id}/default`]);
  });

  it('adds the server’s reason when it gave one', async () => {
    const user = userEvent.setup();
    serveCards(() => Response.json({ detail: 'Payment method not found', code: 'not_found' }, { status: 404 }));
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'Set as Default' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^Failed to update default payment method: Payment method not found$/,
    );
  });
});
