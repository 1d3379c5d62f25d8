import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { lazy } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppLayout } from './app-layout.js';

function Where() {
  const { pathname } = useLocation();
  return <p>at {pathname}</p>;
}

/** The layout alone at `path`, its content telling where the router is. */
function renderLayoutAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="*" element={<AppLayout />}>
          <Route path="*" element={<Where />} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

describe('the shared layout', () => {
  // jsdom does not scroll; the layout scrolls to the top on each navigation (NAV-LAYOUT-5).
  beforeEach(() => vi.stubGlobal('scrollTo', vi.fn()));
  afterEach(() => vi.unstubAllGlobals());

  it('has a logo in the top bar that links to / (NAV-LAYOUT-1)', async () => {
    renderLayoutAt('/about-us');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const logo = screen.getByRole('link', { name: 'Data Platform home' });
    expect(nav).toContainElement(logo);
    expect(logo).toHaveAttribute('href', '/');
    await userEvent.click(logo);
    expect(screen.getByText('at /')).toBeInTheDocument();
  });

  // NAV-LAYOUT-6: the layout knows the product paths and the signed-in areas, and marks the top-bar
  // entry they belong to.
  it.each(['/studio', '/payer', '/hospital-prices', '/cms-fs', '/Agent', '/payer/2026'])(
    'marks Platform as the current menu on %s (NAV-LAYOUT-6)',
    (path) => {
      renderLayoutAt(path);
      expect(screen.getByRole('button', { name: 'Platform' })).toHaveAttribute('aria-current', 'true');
      expect(screen.getByRole('button', { name: 'account menu' })).not.toHaveAttribute('aria-current');
    },
  );

  it.each(['/settings', '/settings/billing-history', '/admin'])(
    'marks the account menu as current on %s (NAV-LAYOUT-6)',
    (path) => {
      renderLayoutAt(path);
      expect(screen.getByRole('button', { name: 'account menu' })).toHaveAttribute('aria-current', 'page');
      expect(screen.getByRole('button', { name: 'Platform' })).not.toHaveAttribute('aria-current');
    },
  );

  it('marks the menu a marketing page belongs to (NAV-LAYOUT-6)', () => {
    renderLayoutAt('/transparency-pipeline');
    expect(screen.getByRole('button', { name: 'Solutions & Services' })).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('button', { name: 'Platform' })).not.toHaveAttribute('aria-current');
  });

  // The paths are matched as written: /agent is not /Agent, /payers is not /payer.
  it.each(['/agent', '/payers', '/settingsx'])(
    'marks nothing on %s, a path it does not know (NAV-LAYOUT-6)',
    (path) => {
      renderLayoutAt(path);
      for (const button of screen.getAllByRole('button')) expect(button).not.toHaveAttribute('aria-current');
    },
  );

  it('shows nothing in the content area while a page loads, then the page (NAV-LAYOUT-7)', async () => {
    const AboutUsPage = lazy(() =>
      import('../../features/marketing/pages/about-us-page.js').then((m) => ({ default: m.AboutUsPage })),
    );
    render(
      <MemoryRouter initialEntries={['/about-us']}>
        <Routes>
          <Route element={<AppLayout />}>
            <Route path="about-us" element={<AboutUsPage />} />
          </Route>
        </Routes>
      </MemoryRouter>,
    );
    // The top bar is there at once; the page's chunk is still on its way and the fallback is empty.
    expect(screen.getByRole('link', { name: 'Data Platform home' })).toBeVisible();
    expect(screen.getByRole('main')).toBeEmptyDOMElement();
    expect(await screen.findByRole('heading', { level: 1, name: /reports people trust/ })).toBeVisible();
  });
});
