import { emailVerificationMessages, type UserMe } from '@dataplatform/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordRequests, server } from '../../../test/api-server.js';
import { STORAGE_KEYS } from '../../../lib/session.js';
import { renderWithFreshClient } from '../../../test/render-in-app.js';
import { resetSignedInState } from '../../../test/signed-in.js';
import { EmailVerificationBanner } from './email-verification-banner.js';

const ME: UserMe = {
  id: '00000000-0000-4000-8000-0000000000a1',
  email: 'new.person@example.com',
  full_name: 'New Person',
  is_active: true,
  is_superuser: false,
  email_verified: false,
  created_at: '2026-11-01T10:00:00.000Z',
  roles: [],
};

const renderBanner = (me: UserMe) => renderWithFreshClient(<EmailVerificationBanner me={me} />);

describe('EmailVerificationBanner', () => {
  beforeEach(() => localStorage.setItem(STORAGE_KEYS.accessToken, 'token'));
  afterEach(resetSignedInState);

  it('says nothing for a verified address', () => {
    const { container } = renderBanner({ ...ME, email_verified: true });
    expect(container).toBeEmptyDOMElement();
  });

  it('asks to verify, and mails a new link on "Resend verification e-mail"', async () => {
    server.use(
      http.post('*/api/v1/users/me/email-verification', () =>
        HttpResponse.json({ message: emailVerificationMessages.sent }),
      ),
    );
    const requests = recordRequests();
    renderBanner(ME);
    expect(screen.getByText(/follow the link we sent to new\.person@example\.com/)).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Resend verification e-mail' }));
    expect(await screen.findByText(emailVerificationMessages.sent)).toBeVisible();
    expect(requests.map((request) => `${request.method} ${request.url}`)).toContain(
      'POST /api/v1/users/me/email-verification',
    );
  });

  it("shows the limit's message when too many links were asked for", async () => {
    server.use(
      http.post('*/api/v1/users/me/email-verification', () =>
        HttpResponse.json(
          { detail: 'Too many requests, please try again later', code: 'rate_limited' },
          { status: 429, headers: { 'retry-after': '600' } },
        ),
      ),
    );
    renderBanner(ME);
    await userEvent.click(screen.getByRole('button', { name: 'Resend verification e-mail' }));
    expect(await screen.findByText('Too many requests, please try again later')).toBeVisible();
  });
});
