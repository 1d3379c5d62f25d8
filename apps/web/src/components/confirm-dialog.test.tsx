import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AreaErrorBoundary } from './area-error-boundary.js';
import { ConfirmDialog } from './confirm-dialog.js';

describe('ConfirmDialog', () => {
  it('names itself by its title, describes itself by its message, and confirms or cancels', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    const onClose = vi.fn();
    render(
      <ConfirmDialog open title="Delete User" onConfirm={onConfirm} onClose={onClose}>
        Are you sure you want to delete the user &quot;a@example.com&quot;? This action cannot be undone.
      </ConfirmDialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Delete User' });
    expect(dialog).toHaveAccessibleDescription(
      'Are you sure you want to delete the user "a@example.com"? This action cannot be undone.',
    );
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('disables both buttons while the action runs', () => {
    render(
      <ConfirmDialog open title="Confirmation Required" loading onConfirm={vi.fn()} onClose={vi.fn()}>
        Delete your account?
      </ConfirmDialog>,
    );
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
  });
});

describe('AreaErrorBoundary', () => {
  it('shows "Something went wrong." with Try again instead of a blank area', async () => {
    const user = userEvent.setup();
    let broken = true;
    function Screen() {
      if (broken) throw new Error('render failed');
      return <p>recovered</p>;
    }
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <AreaErrorBoundary>
        <Screen />
      </AreaErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong.');
    broken = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('recovered')).toBeInTheDocument();
  });
});
