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

  it('keeps one tab in the Tab order and moves between tabs with the arrow keys, Home and End', async () => {
    const user = userEvent.setup();
    renderAt('/settings/password');
    const profile = screen.getByRole('tab', { name: 'My profile' });
    const password = screen.getByRole('tab', { name: 'Password' });
    expect(password).toHaveAttribute('tabindex', '0');
    expect(profile).toHaveAttribute('tabindex', '-1');
    await user.tab();
    expect(password).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(profile).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(password).toHaveFocus();
    await user.keyboard('{Home}');
    expect(profile).toHaveFocus();
    await user.keyboard('{End}');
    expect(password).toHaveFocus();
    // Moving the focus does not change the tab; Enter follows the focused tab's link.
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByLabelText('location')).toHaveTextContent('/settings/password');
    await user.keyboard('{Enter}');
    expect(screen.getByLabelText('location')).toHaveTextContent('/settings/profile');
    expect(profile).toHaveAttribute('aria-selected', 'true');
  });

  it('puts the first tab in the Tab order when the route shows no tab', () => {
    renderAt('/settings/download');
    expect(screen.getByRole('tab', { name: 'My profile' })).toHaveAttribute('tabindex', '0');
    expect(screen.getByRole('tab', { name: 'My profile' })).toHaveAttribute('aria-selected', 'false');
  });
});
