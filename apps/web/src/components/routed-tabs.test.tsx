import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RoutedTabs } from './routed-tabs.js';

function Where() {
  return <output aria-label="location">{useLocation().pathname}</output>;
}

/**
 * The settings area as src/routes.ts builds it: the area's route holds the tabs, each tab a child
 * route, with the area's own path and unknown segments below it routed to nothing. The security tab's
 * code arrives when `arrive` is called, as a route module does on the way to it.
 */
function renderAt(path: string) {
  let arrive = () => {};
  const securityArrives = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <Outlet />
            <Where />
          </>
        ),
        children: [
          {
            path: 'settings',
            element: (
              <RoutedTabs
                aria-label="Settings"
                tabs={[
                  { label: 'My profile', path: '/settings/profile' },
                  { label: 'Password', path: 'password' },
                  { label: 'Security', path: '/settings/security' },
                  { label: 'Download', path: '/settings/download', hidden: true },
                ]}
              />
            ),
            children: [
              { index: true, element: null },
              { path: 'profile', element: <p>profile screen</p> },
              { path: 'password', element: <p>password screen</p> },
              {
                path: 'security',
                lazy: async () => {
                  await securityArrives;
                  return { element: <p>security screen</p> };
                },
              },
              { path: 'download', element: <p>nothing to download</p> },
              { path: '*', element: null },
            ],
          },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return { arrive };
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

  it('selects a tab and shows its loading line while its code is on the way', async () => {
    const user = userEvent.setup();
    const { arrive } = renderAt('/settings/password');
    await user.click(screen.getByRole('tab', { name: 'Security' }));
    expect(screen.getByRole('tab', { name: 'Security' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Security' })).toHaveTextContent('Loading...');
    expect(screen.getByLabelText('location')).toHaveTextContent('/settings/password');
    await act(async () => arrive());
    expect(await screen.findByText('security screen')).toBeInTheDocument();
    expect(screen.getByLabelText('location')).toHaveTextContent('/settings/security');
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
    const security = screen.getByRole('tab', { name: 'Security' });
    await user.tab();
    expect(password).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(security).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(password).toHaveFocus();
    await user.keyboard('{Home}');
    expect(profile).toHaveFocus();
    await user.keyboard('{End}');
    expect(security).toHaveFocus();
    // Moving the focus does not change the tab; Enter follows the focused tab's link.
    await user.keyboard('{ArrowRight}');
    expect(profile).toHaveFocus();
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
