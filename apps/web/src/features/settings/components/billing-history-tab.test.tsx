import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../../lib/session.js';
import { renderWithFreshClient } from '../../../test/render-in-app.js';
import { backgroundColourName } from '../../../test/colors.js';
import { BillingHistoryTab } from './billing-history-tab.js';
import { http, HttpResponse } from 'msw';
import { recordRequests, server, urlsOf } from '../../../test/api-server.js';

function transaction(index: number, status: 'succeeded' | 'pending' | 'failed', overrides: object = {}) {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    created_at: `2026-11-0${index}T10:00:00.000Z`,
    amount: '49.00',
    currency: 'usd',
    status,
    error_message: null,
    description: 'Pro (monthly)',
    ...overrides,
  };
}

const serveTransactions = (answer: () => Response) =>
  server.use(http.get('*/api/v1/subscriptions/transactions', answer));

const renderTab = () => renderWithFreshClient(<BillingHistoryTab />);

describe('BillingHistoryTab', () => {
  beforeEach(() => localStorage.setItem(STORAGE_KEYS.accessToken, 'token'));

  it('asks for ten rows from skip 0 and shows Date, Amount, Status and Details (SET-BILLING-1)', async () => {
    serveTransactions(() => HttpResponse.json({ data: [transaction(1, 'succeeded')], count: 1 }));
    const requests = recordRequests();
    renderTab();
    const table = screen.getByRole('table');
    expect(await within(table).findByText('Pro (monthly)')).toBeVisible();
    expect(urlsOf(requests)).toEqual(['/api/v1/subscriptions/transactions?skip=0&limit=10']);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Date', 'Amount', 'Status', 'Details']);
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Nov 1, 2026$49.00succeededPro (monthly)');
  });

  it('shows succeeded in green, pending in amber and failed in red (SET-BILLING-2)', async () => {
    serveTransactions(() =>
      HttpResponse.json({
        data: [
          transaction(3, 'failed', { error_message: 'Your card was declined.' }),
          transaction(2, 'pending'),
          transaction(1, 'succeeded'),
        ],
        count: 3,
      }),
    );
    renderTab();
    expect(backgroundColourName(await screen.findByText('succeeded'))).toBe('green');
    expect(backgroundColourName(screen.getByText('pending'))).toBe('amber');
    expect(backgroundColourName(screen.getByText('failed'))).toBe('red');
    expect(screen.getByText('Your card was declined.')).toBeVisible();
  });

  it('says "Error loading transaction history. Please try again later." when the list cannot be loaded (SET-BILLING-5)', async () => {
    serveTransactions(() => HttpResponse.json({ detail: 'Internal Server Error' }, { status: 500 }));
    renderTab();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^Error loading transaction history\. Please try again later\.$/,
    );
  });
});
