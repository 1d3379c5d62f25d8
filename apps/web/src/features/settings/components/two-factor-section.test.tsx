import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { server, serveApi } from '../../../test/api-server.js';
import { STORAGE_KEYS } from '../../../lib/session.js';
import { renderWithFreshClient } from '../../../test/render-in-app.js';
import { resetSignedInState } from '../../../test/signed-in.js';
import { TwoFactorSection } from './two-factor-section.js';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, i) => `abcde-fgh${String(i).padStart(2, '2')}`);

interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** Stubs fetch with a server whose two-factor state the test holds; answers are by method and path. */
function fakeServer(state: { enabled: boolean; required?: boolean; disableAnswer?: () => Response }) {
  const calls: Call[] = [];
  serveApi(async (url, init) => {
    const method = init.method ?? 'GET';
    calls.push({ method, url, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
    if (method === 'GET' && url === '/api/v1/users/me/two-factor') {
      return Response.json({
        enabled: state.enabled,
        recovery_codes_left: state.enabled ? 10 : 0,
        required: state.required ?? false,
      });
    }
    if (url === '/api/v1/users/me/two-factor/setup') {
      return Response.json({ secret: SECRET, otpauth_url: `otpauth://totp/Data%20Platform:a%40b.c?secret=${SECRET}` });
    }
    if (url === '/api/v1/users/me/two-factor/confirm') {
      state.enabled = true;
      return Response.json({ recovery_codes: CODES });
    }
    if (url === '/api/v1/users/me/two-factor/disable' && state.disableAnswer) return state.disableAnswer();
    return Response.json({ detail: 'Not Found', code: 'not_found' }, { status: 404 });
  });
  return calls;
}

const renderSection = () => renderWithFreshClient(<TwoFactorSection />);

describe('TwoFactorSection', () => {
  beforeEach(() => localStorage.setItem(STORAGE_KEYS.accessToken, 'token'));
  afterEach(resetSignedInState);

  it('explains why an administrator must turn it on, shows the key, confirms a code and shows the recovery codes once (TOTP-ENROL-1, TOTP-ADMIN-2)', async () => {
    const user = userEvent.setup();
    const calls = fakeServer({ enabled: false, required: true });
    renderSection();
    expect(await screen.findByText(/must turn on two-factor authentication before using the admin area/)).toBeVisible();
    expect(screen.getByText('Off.')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Turn on two-factor authentication' }));
    expect(await screen.findByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeVisible();

    await user.type(screen.getByLabelText(/Authentication code/), '12a');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('Enter the 6-digit code from your authenticator app')).toBeVisible();
    expect(calls.some((call) => call.url.endsWith('/confirm'))).toBe(false);

    await user.clear(screen.getByLabelText(/Authentication code/));
    await user.type(screen.getByLabelText(/Authentication code/), '123 456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(calls.find((call) => call.url.endsWith('/confirm'))?.body).toEqual({ code: '123456' });
    expect(screen.getByRole('button', { name: 'Copy codes' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Download codes' })).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'I have saved my codes' }));
    expect(await screen.findByText(/Recovery codes left: 10/)).toBeVisible();
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
  });

  it('turns off only with the password and a code, and puts a wrong password on its field (TOTP-DISABLE-1)', async () => {
    const user = userEvent.setup();
    const calls = fakeServer({
      enabled: true,
      disableAnswer: () => Response.json({ detail: 'Incorrect password', code: 'incorrect_password' }, { status: 400 }),
    });
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Password is required')).toBeVisible();
    expect(calls.some((call) => call.url.endsWith('/disable'))).toBe(false);

    await user.type(screen.getByLabelText(/^Password/), 'wrong-password');
    await user.type(screen.getByLabelText(/Authentication code/), '654321');
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Incorrect password')).toBeVisible();
    expect(calls.find((call) => call.url.endsWith('/disable'))?.body).toEqual({
      password: 'wrong-password',
      code: '654321',
    });
  });

  it('says so when the status cannot be loaded', async () => {
    server.use(
      http.get('*/api/v1/users/me/two-factor', () =>
        HttpResponse.json({ detail: 'Boom', code: 'internal_error' }, { status: 500 }),
      ),
    );
    renderSection();
    expect(await screen.findByText('Error loading two-factor authentication. Please try again later.')).toBeVisible();
  });
});
