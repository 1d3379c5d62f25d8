import { emailVerificationMessages } from '@dataplatform/contract';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { recordRequests, server } from '../../../test/api-server.js';
import { STORAGE_KEYS } from '../../../lib/session.js';
import { resetSignedInState } from '../../../test/signed-in.js';
import { VerifyEmailPage } from './verify-email-page.js';

/** The page reads the token from the real address bar, as a link from a mail opens it. */
function openLink(search: string) {
  window.history.replaceState(null, '', `/verify-email${search}`);
  render(
    <MemoryRouter>
      <VerifyEmailPage />
    </MemoryRouter>,
  );
}

describe('VerifyEmailPage', () => {
  afterEach(() => {
    resetSignedInState();
    window.history.replaceState(null, '', '/');
  });

  it('sends the token once, takes it out of the address, and says the address is verified', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post('*/api/v1/verify-email/', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({
          message: emailVerificationMessages.verified,
          email: 'a@example.com',
          changed: false,
        });
      }),
    );
    // Only that call: any other request is unhandled, and fails the test.
    const requests = recordRequests();
    openLink('?token=the-token');
    expect(screen.getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
    expect(await screen.findByText(emailVerificationMessages.verified)).toBeVisible();
    expect(bodies).toEqual([{ token: 'the-token' }]);
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual(['POST /api/v1/verify-email/']);
    expect(window.location.search).toBe('');
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
  });

  it("shows the server's refusal of a used link, and points a signed-in person to the settings", async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token');
    server.use(
      http.post('*/api/v1/verify-email/', () =>
        HttpResponse.json(
          { detail: emailVerificationMessages.invalidToken, code: 'invalid_verification_token' },
          { status: 400 },
        ),
      ),
    );
    openLink('?token=used');
    expect(await screen.findByRole('alert')).toHaveTextContent(emailVerificationMessages.invalidToken);
    expect(screen.getByRole('link', { name: 'Go to your settings' })).toHaveAttribute('href', '/settings/profile');
  });

  it('refuses a link without a token without calling the server', () => {
    const requests = recordRequests();
    openLink('');
    expect(screen.getByRole('alert')).toHaveTextContent(emailVerificationMessages.invalidToken);
    expect(requests).toEqual([]);
  });
});
