import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { tooltip, TooltipLayer } from './tooltip-layer.js';

function renderButtons() {
  render(
    <>
      <button type="button" aria-label="Edit user ann@example.com" {...tooltip('Edit ann@example.com')}>
        <svg aria-hidden="true" data-testid="icon" />
      </button>
      <button type="button">Plain</button>
      <TooltipLayer />
    </>,
  );
}

// The bubble repeats the button's own name, so it is hidden from the accessibility tree.
const bubble = () => screen.queryByRole('tooltip', { hidden: true });

describe('TooltipLayer', () => {
  it('shows the tooltip of a hovered element after a short delay and hides it when the pointer leaves', async () => {
    const user = userEvent.setup();
    renderButtons();
    await user.hover(screen.getByTestId('icon'));
    expect(bubble()).toBeNull();
    await waitFor(() => expect(bubble()).toHaveTextContent('Edit ann@example.com'));
    expect(bubble()).toHaveAttribute('aria-hidden', 'true');
    await user.hover(screen.getByRole('button', { name: 'Plain' }));
    await waitFor(() => expect(bubble()).toBeNull());
  });

  it('stays while the pointer moves onto it, and Escape dismisses it', async () => {
    const user = userEvent.setup();
    renderButtons();
    await user.hover(screen.getByRole('button', { name: 'Edit user ann@example.com' }));
    await waitFor(() => expect(bubble()).not.toBeNull());
    await user.hover(bubble()!);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bubble()).toHaveTextContent('Edit ann@example.com');
    await user.keyboard('{Escape}');
    expect(bubble()).toBeNull();
  });

  it('shows at once on keyboard focus, not on a click, and hides when the focus leaves', async () => {
    const user = userEvent.setup();
    renderButtons();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Edit user ann@example.com' })).toHaveFocus();
    expect(bubble()).toHaveTextContent('Edit ann@example.com');
    await user.tab();
    expect(bubble()).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Edit user ann@example.com' }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // A click is a pointer: its focus shows nothing, and the press closes what the hover opened.
    expect(bubble()).toBeNull();
  });
});
