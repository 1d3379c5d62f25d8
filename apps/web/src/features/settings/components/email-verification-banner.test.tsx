import { emailVerificationMessages, type UserMe } from '@dataplatform/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      calls.push(`${init.method ?? 'GET'} ${url}`);
      return Response.json({ message: emailVerificationMessages.sent });
    });
    renderBanner(ME);
    expect(screen.getByText(/follow the link we sent to new\.person@example\.com/)).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Resend verification e-mail' }));
    expect(await screen.findByText(emailVerificationMessages.sent)).toBeVisible();
    expect(calls).toContain('POST /api/v1/users/me/email-verification');
  });

  it("shows the limit's message when too many links were asked for", async () => {
    vi.stubGlobal('fetch', async () =>
      Response.json(
        { detail: 'Too many requests, please try again later', code: 'rate_limited' },
        { status: 429, headers: { 'retry-after': '600' } },
      ),
    );
    renderBanner(ME);
    await userEvent.click(screen.getByRole('button', { name: 'Resend verification e-mail' }));
    expect(await screen.findByText('Too many requests, please try again later')).toBeVisible();
  });
});
