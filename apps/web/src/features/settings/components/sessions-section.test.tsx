import { sessionMessages, type AccountSession } from '@dataplatform/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { callsOf, recordRequests, server } from '../../../test/api-server.js';
import { Toaster } from '../../../components/toaster.js';
import { STORAGE_KEYS } from '../../../lib/session.js';
import { renderWithFreshClient } from '../../../test/render-in-app.js';
import { resetSignedInState } from '../../../test/signed-in.js';
import { SessionsSection } from './sessions-section.js';

function session(id: number, overrides: Partial<AccountSession> = {}): AccountSession {
  return {
    id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    created_at: '2026-11-20T09:00:00.000Z',
    last_seen_at: '2026-11-24T09:00:00.000Z',
    ip: `198.51.100.${id}`,
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0',
    device: 'Chrome 156 on Linux',
    current: false,
    ...overrides,
  };
}

/** A server holding the caller's sessions; DELETE and revoke-others change them as the API does. */
function fakeServer(sessions: AccountSession[], options: { failList?: boolean } = {}) {
  server.use(
    http.get('*/api/v1/users/me/sessions', () => {
      if (options.failList) return HttpResponse.json({ detail: 'Boom', code: 'internal_error' }, { status: 500 });
      return HttpResponse.json({ data: sessions });
    }),
    http.post('*/api/v1/users/me/sessions/revoke-others', () => {
      const revoked = sessions.filter((s) => !s.current).length;
      sessions.splice(0, sessions.length, ...sessions.filter((s) => s.current));
      return HttpResponse.json({ revoked });
    }),
    http.delete('*/api/v1/users/me/sessions/:id', ({ params }) => {
      sessions.splice(
        sessions.findIndex((s) => s.id === params.id),
        1,
      );
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return recordRequests();
}

function renderSection() {
  renderWithFreshClient(
    <>
      <SessionsSection />
      <Toaster />
    </>,
  );
}

describe('SessionsSection', () => {
  beforeEach(() => localStorage.setItem(STORAGE_KEYS.accessToken, 'token'));
  afterEach(resetSignedInState);

  it('lists the sessions with their details, this device marked and without a Sign out of its own', async () => {
    fakeServer([session(1, { current: true, device: 'Firefox 140 on Windows 10' }), session(2)]);
    renderSection();
    expect(screen.getByText('Loading your sessions...')).toBeVisible();
    const list = await screen.findByRole('list', { name: 'Active sessions' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('This device')).toBeVisible();
    expect(within(items[0]!).queryByRole('button', { name: /Sign out/ })).not.toBeInTheDocument();
    expect(within(items[1]!).getByText('198.51.100.2')).toBeVisible();
    expect(within(items[1]!).getByText('Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0')).toBeVisible();
    expect(within(items[1]!).getByRole('button', { name: /^Sign out Chrome 156 on Linux/ })).toBeVisible();
  });

  it('signs out another session after asking', async () => {
    const requests = fakeServer([session(1, { current: true }), session(2)]);
    renderSection();
    await userEvent.click(await screen.findByRole('button', { name: /^Sign out Chrome 156 on Linux/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign Out Session' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Session signed out')).toBeVisible();
    expect(callsOf(requests)).toContain(`DELETE /api/v1/users/me/sessions/${session(2).id}`);
    expect(await screen.findByText(sessionMessages.noOtherSessions)).toBeVisible();
  });

  it('signs out all the others at once, and then has none to sign out', async () => {
    fakeServer([session(1, { current: true }), session(2), session(3)]);
    renderSection();
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out all other sessions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign Out Other Sessions' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out all' }));
    expect(await screen.findByText('Signed out 2 other sessions')).toBeVisible();
    expect(await screen.findByText(sessionMessages.noOtherSessions)).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Sign out all other sessions' })).toBeDisabled();
  });

  it('says when the list cannot be loaded, with a way to try again', async () => {
    fakeServer([], { failList: true });
    renderSection();
    expect(await screen.findByText(sessionMessages.sessionsLoadFailed)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});
