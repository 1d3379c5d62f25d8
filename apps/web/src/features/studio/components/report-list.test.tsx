import type { ReportListItem } from '@dataplatform/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { recordRequests, server, urlsOf } from '../../../test/api-server.js';
import { renderWithFreshClient } from '../../../test/render-in-app.js';
import { ReportList } from './report-list.js';

const OWN: ReportListItem = {
  id: '5d0d1e00-0000-4000-8000-000000000001',
  slug: 'margins',
  title: 'Margins',
  description: null,
  source: 'extract',
  version: 4,
  built_in: false,
  visibility: 'tenant',
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-02T10:00:00.000Z',
  updated_by: 'ana@example.com',
};

describe('ReportList (STUDIO-VIEW-1)', () => {
  it('shows who changed each report last, and asks the server for the reports a search matches', async () => {
    const user = userEvent.setup();
    server.use(
      http.get('*/api/v1/studio/reports', ({ request }) => {
        const q = new URL(request.url).searchParams.get('q');
        return HttpResponse.json(q === 'nothing' ? { data: [], count: 0 } : { data: [OWN], count: 1 });
      }),
    );
    const requests = recordRequests();
    renderWithFreshClient(
      <MemoryRouter>
        <ReportList />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('link', { name: 'Margins' })).toBeVisible();
    expect(screen.getByText('by ana@example.com')).toBeVisible();
    await user.type(screen.getByRole('searchbox', { name: 'Search reports' }), 'nothing');
    expect(await screen.findByText('No report matches this search.')).toBeVisible();
    expect(urlsOf(requests).at(-1)).toBe('/api/v1/studio/reports?skip=0&limit=20&q=nothing');
  });
});
