import type { ReportVersion } from '@dataplatform/contract';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '../../../test/api-server.js';
import { renderWithFreshClient } from '../../../test/render-in-app.js';
import { VersionHistory } from './version-history.js';

const REPORT = { id: '5d0d1e00-0000-4000-8000-00000000000a', version: 2, built_in: false };

const VERSIONS: ReportVersion[] = [
  {
    version: 2,
    author_id: '5d0d1e00-0000-4000-8000-0000000000a1',
    author_email: 'ann@example.com',
    created_at: '2026-11-27T02:00:00.000Z',
    restored_from: null,
    drafted_with_agent: false,
    title: 'Rates',
  },
  {
    version: 1,
    author_id: null,
    author_email: null,
    created_at: '2026-11-26T02:00:00.000Z',
    restored_from: null,
    drafted_with_agent: false,
    title: 'Rates',
  },
];

/** A screen of `width` pixels, as far as MUI's media queries ask (its "sm" starts at 600 px). */
function screenWidth(width: number) {
  vi.stubGlobal('matchMedia', (query: string) => {
    const below = /max-width:\s*([\d.]+)px/.exec(query);
    const above = /min-width:\s*([\d.]+)px/.exec(query);
    const matches = (!below || width <= Number(below[1])) && (!above || width >= Number(above[1]));
    return {
      matches,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
    };
  });
}

function renderHistory() {
  server.use(
    http.get('*/api/v1/studio/reports/:id/versions', () =>
      HttpResponse.json({ data: VERSIONS, count: VERSIONS.length }),
    ),
  );
  return renderWithFreshClient(<VersionHistory report={REPORT} canWrite dirty={false} onRestored={() => undefined} />);
}

afterEach(() => vi.unstubAllGlobals());

describe('VersionHistory (STUDIO-EDIT-5)', () => {
  it('shows who saved each version and when in columns of their own on a wide screen', async () => {
    screenWidth(1280);
    renderHistory();
    const table = await screen.findByRole('table', { name: 'Versions' });
    expect(await within(table).findByText('ann@example.com')).toBeInTheDocument();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Version', 'Saved by', 'When', 'Actions']);
  });

  it('stacks them under the version on a phone, so the table fits 390 px', async () => {
    screenWidth(390);
    renderHistory();
    const table = await screen.findByRole('table', { name: 'Versions' });
    const current = await within(table).findByRole('row', { name: /2 \(current\)/ });
    expect(current).toHaveTextContent('Saved by ann@example.com');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Version', 'Actions']);
    expect(within(current).getByRole('button', { name: 'Restore version 2' })).toBeDisabled();
    expect(within(current).getByRole('button', { name: 'Compare version 2 with version 1' })).toBeEnabled();
  });
});
