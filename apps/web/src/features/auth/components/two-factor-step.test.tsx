import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { serveApi } from '../../../test/api-server.js';
import { getAccessToken } from '../../../lib/session.js';
import { resetSignedInState } from '../../../test/signed-in.js';
import { LoginPage } from './login-page.js';

interface Call {
  url: string;
  body: unknown;
}

/** The password step answers a challenge; the code step answers what `codeAnswer` says. */
function fakeServer(codeAnswer: (body: { code: string }) => Response) {
  const calls: Call[] = [];
  serveApi(async (url, init) => {
    const body: unknown =
      typeof init.body === 'string' && url.endsWith('/two-factor') ? (JSON.parse(init.body) as unknown) : init.body;
    calls.push({ url, body });
    if (url === '/api/v1/login/access-token') {
      return Response.json({ two_factor_required: true, challenge_token: 'challenge-1', expires_in: 300 });
    }
    if (url === '/api/v1/login/two-factor') return codeAnswer(body as { code: string });
    if (url === '/api/v1/users/me') {
      return Response.json({ id: 'u1', email: 'ada@example.com', full_name: 'Ada', is_superuser: false });
    }
    return Response.json({ detail: 'Not Found', code: 'not_found' }, { status: 404 });
  });
  return calls;
}

async function passwordStep() {
  const user = userEvent.setup();
  render(
    <MemoryRouter initialEntries={['/login']}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/" element={<p>Home page</p>} />
      </Routes>
    </MemoryRouter>,
  );
  await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'ada@example.com');
  await user.type(screen.getByLabelText(/^Password/), 'correct-password');
  await user.click(screen.getByRole('button', { name: 'Log In' }));
  expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  return user;
}

describe('the code step of logging in (TOTP-LOGIN-3)', () => {
  afterEach(resetSignedInState);

  it('asks for the six-digit code, shows a refused code on the field, then signs in', async () => {
    const calls = fakeServer(({ code }) =>
      code === '123456'
        ? Response.json({ access_token: 'session-1', token_type: 'bearer' })
        : Response.json({ detail: 'Invalid authentication code', code: 'invalid_two_factor_code' }, { status: 400 }),
    );
    const user = await passwordStep();
    expect(getAccessToken()).toBeNull();
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the code from your authenticator app')).toBeVisible();

    await user.type(screen.getByLabelText(/Authentication code/), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Invalid authentication code')).toBeVisible();

    await user.clear(screen.getByLabelText(/Authentication code/));
    await user.type(screen.getByLabelText(/Authentication code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Home page')).toBeVisible();
    expect(getAccessToken()).toBe('session-1');
    expect(calls.filter((call) => call.url === '/api/v1/login/two-factor').map((call) => call.body)).toEqual([
      { challenge_token: 'challenge-1', code: '000000' },
      { challenge_token: 'challenge-1', code: '123456' },
    ]);
  });

  it('takes a recovery code instead', async () => {
    const calls = fakeServer(() => Response.json({ access_token: 'session-2', token_type: 'bearer' }));
    const user = await passwordStep();
    await user.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    expect(screen.getByText(/Enter one of the recovery codes you saved/)).toBeVisible();
    await user.type(screen.getByLabelText(/Recovery code/), 'abcde-fghij');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Home page')).toBeVisible();
    expect(calls.find((call) => call.url === '/api/v1/login/two-factor')?.body).toEqual({
      challenge_token: 'challenge-1',
      code: 'abcde-fghij',
    });
  });

  it('goes back to the password step with the reason when the challenge has expired', async () => {
    fakeServer(() =>
      Response.json(
        {
          detail: 'Your sign-in took too long or was already used. Log in again.',
          code: 'invalid_two_factor_challenge',
        },
        { status: 400 },
      ),
    );
    const user = await passwordStep();
    await user.type(screen.getByLabelText(/Authentication code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Your sign-in took too long or was already used. Log in again.',
    );
  });
});
