import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../../lib/session.js';
import { DownloadTab } from './download-tab.js';
import { http, HttpResponse } from 'msw';
import { recordRequests, server, urlsOf } from '../../../test/api-server.js';

const serveDownload = (answer: () => Response) => server.use(http.get('*/api/v1/files/download/:name', answer));

function renderTab() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <DownloadTab roles={['download_quarterly_report', 'viewer']} />
    </QueryClientProvider>,
  );
}

describe('DownloadTab failures', () => {
  let alert: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token');
    alert = vi.fn();
    vi.stubGlobal('alert', alert);
  });
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ['a 404', () => HttpResponse.json({ detail: 'File not found', code: 'not_found' }, { status: 404 })],
    ['a 500', () => HttpResponse.json({ detail: 'Internal Server Error' }, { status: 500 })],
    [
      // A network error: fetch rejects with "TypeError: Failed to fetch".
      'no answer at all',
      () => HttpResponse.error(),
    ],
  ])('alerts "Download failed." for %s (SET-DOWNLOAD-4)', async (_case, answer) => {
    const user = userEvent.setup();
    serveDownload(answer);
    const requests = recordRequests();
    renderTab();
    await user.click(screen.getByRole('button', { name: 'quarterly report' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Download failed.'));
    expect(alert).toHaveBeenCalledTimes(1);
    expect(urlsOf(requests)).toEqual(['/api/v1/files/download/quarterly_report']);
    // The button is usable again for another try.
    await waitFor(() => expect(screen.getByRole('button', { name: 'quarterly report' })).toBeEnabled());
  });

  it('alerts the 403 text, not "Download failed.", when the role no longer allows the file (SET-DOWNLOAD-3)', async () => {
    const user = userEvent.setup();
    serveDownload(() => HttpResponse.json({ detail: 'Not allowed', code: 'forbidden' }, { status: 403 }));
    renderTab();
    await user.click(screen.getByRole('button', { name: 'quarterly report' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('You are not authorized to download this file.'));
    expect(alert).toHaveBeenCalledTimes(1);
  });
});
