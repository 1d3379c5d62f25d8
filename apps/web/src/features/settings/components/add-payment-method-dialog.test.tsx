import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { server } from '../../../test/api-server.js';
import { STORAGE_KEYS } from '../../../lib/session.js';
import { getToasts } from '../../../lib/toast-store.js';
import { AddPaymentMethodDialog, MISSING_KEY_TEXT } from './add-payment-method-dialog.js';

// A stubbed Stripe: Stripe.js is never fetched, Elements renders a plain stand-in for the card field.
const stripe = vi.hoisted(() => ({
  loadStripe: vi.fn(),
  createPaymentMethod: vi.fn(),
}));

vi.mock('@stripe/stripe-js', () => ({ loadStripe: stripe.loadStripe }));
vi.mock('@stripe/react-stripe-js', () => ({
  Elements: ({ children }: { children: unknown }) => children,
  CardElement: () => <div data-testid="stripe-card-element" />,
  useStripe: () => ({ createPaymentMethod: stripe.createPaymentMethod }),
  useElements: () => ({ getElement: () => ({ stand: 'in' }) }),
}));

let keyCounter = 0;

/** Serves the billing config (Stripe, with `publishableKey`) and records each saved card's body. */
function serveBilling(publishableKey: string | null) {
  const saved: unknown[] = [];
  server.use(
    http.get('*/api/v1/subscriptions/config', () =>
      HttpResponse.json({ provider: 'stripe', publishable_key: publishableKey, currency: 'usd' }),
    ),
    http.post('*/api/v1/subscriptions/payment-methods', async ({ request }) => {
      saved.push(await request.json());
      return HttpResponse.json({ id: 'pm-row', brand: 'visa', last4: '4242' }, { status: 201 });
    }),
  );
  return saved;
}

function renderDialog(onClose = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AddPaymentMethodDialog open onClose={onClose} firstCard />
    </QueryClientProvider>,
  );
  return onClose;
}

describe('AddPaymentMethodDialog with Stripe live', () => {
  let key: string;
  beforeEach(() => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token');
    // Stripe.js is cached per key: a key of its own keeps each test's loads apart.
    keyCounter += 1;
    key = `pk_test_${keyCounter}`;
    stripe.loadStripe.mockResolvedValue({ elements: vi.fn() });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.clearAllMocks();
    localStorage.clear();
  });

  it('sends the payment method Stripe created, with the default flag, and says so', async () => {
    const user = userEvent.setup();
    const saved = serveBilling(key);
    stripe.createPaymentMethod.mockResolvedValue({ paymentMethod: { id: 'pm_from_stripe' } });
    const onClose = renderDialog();

    expect(await screen.findByTestId('stripe-card-element')).toBeInTheDocument();
    expect(stripe.loadStripe).toHaveBeenCalledWith(key);
    expect(screen.getByLabelText('Make this my default payment method')).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Add Card' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(stripe.createPaymentMethod).toHaveBeenCalledWith({ type: 'card', card: { stand: 'in' } });
    expect(saved).toEqual([{ provider_payment_method_id: 'pm_from_stripe', is_default: true }]);
    expect(getToasts().at(-1)).toMatchObject({ message: 'Payment method added successfully', severity: 'success' });
  });

  it("shows Stripe's reason with Try again, and a reason-less error as 'An error occurred'", async () => {
    const user = userEvent.setup();
    const saved = serveBilling(key);
    stripe.createPaymentMethod
      .mockResolvedValueOnce({ error: { message: 'Your card was declined.' } })
      .mockResolvedValueOnce({ error: {} })
      .mockResolvedValueOnce({ paymentMethod: { id: 'pm_second_try' } });
    const onClose = renderDialog();
    await screen.findByTestId('stripe-card-element');

    await user.click(screen.getByRole('button', { name: 'Add Card' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to add payment method: Your card was declined.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to add payment method: An error occurred');
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(saved).toEqual([{ provider_payment_method_id: 'pm_second_try', is_default: true }]);
  });

  it('without a publishable key shows the configuration error, with no way to retry', async () => {
    serveBilling(null);
    renderDialog();
    expect(await screen.findByText(MISSING_KEY_TEXT)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add Card' })).toBeDisabled();
    expect(stripe.loadStripe).not.toHaveBeenCalled();
  });

  it('offers Try again when Stripe.js fails to load, and loads it again', async () => {
    const user = userEvent.setup();
    serveBilling(key);
    stripe.loadStripe.mockRejectedValueOnce(new Error('network down')).mockResolvedValueOnce(null);
    renderDialog();

    expect(await screen.findByText('The card field could not be loaded.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    // Loaded but no Stripe object (blocked script): still a failure, and not remembered.
    expect(await screen.findByText('The card field could not be loaded.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('stripe-card-element')).toBeInTheDocument();
    expect(stripe.loadStripe).toHaveBeenCalledTimes(3);
  });
});
