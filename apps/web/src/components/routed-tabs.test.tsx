import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RoutedTabs } from './routed-tabs.js';

function Where() {
  return <output aria-label="location">{useLocation().pathname}</output>;
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          path="settings/*"
          element={
            <RoutedTabs
              aria-label="Settings"
              tabs={[
                { label: 'My profile', path: '/settings/profile', element: <p>profile screen</p> },
                { label: 'Password', path: 'password', element: <p>password screen</p> },
                { label: 'Download', path: '/settings/download', element: <p>nothing to download</p>, hidden: true },
              ]}
            />
          }
        />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

describe('RoutedTabs', () => {
  it('sends the area’s own path and unknown segments to the first tab', () => {
    renderAt('/settings');
    expect(screen.getByLabelText('location')).toHaveTextContent('/settings/profile');
    expect(screen.getByRole('tab', { name: 'My profile' })).toHaveAttribute('aria-selected', 'true');
  });

  it('redirects an unknown tab to the first', () => {
    renderAt('/settings/nope');
    expect(screen.getByLabelText('location')).toHaveTextContent('/settings/profile');
  });

  it('binds each tab to its URL and shows its screen in the tab panel', async () => {
    const user = userEvent.setup();
    renderAt('/settings/password');
    expect(screen.getByRole('tab', { name: 'Password' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Password' })).toHaveTextContent('password screen');
    await user.click(screen.getByRole('tab', { name: 'My profile' }));
    expect(screen.getByLabelText('location')).toHaveTextContent('/settings/profile');
    expect(screen.getByText('profile screen')).toBeInTheDocument();
  });

  it('keeps a hidden tab’s route without showing its tab', () => {
    renderAt('/settings/download');
    expect(screen.queryByRole('tab', { name: 'Download' })).not.toBeInTheDocument();
    expect(screen.getByText('nothing to download')).toBeInTheDocument();
  });
});
