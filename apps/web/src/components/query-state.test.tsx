import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { QueryState } from './query-state.js';

function query(state: Partial<{ isPending: boolean; isError: boolean; isFetching: boolean }>) {
  return { isPending: false, isError: false, isFetching: false, refetch: vi.fn(), ...state };
}

const words = { loading: 'Loading plans...', failed: 'Plans could not be loaded.', empty: 'No plans yet.' };

describe('QueryState', () => {
  it('shows the loading line while the query is pending', () => {
    render(<QueryState query={query({ isPending: true })} {...words} content={() => 'the plans'} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading plans...');
    expect(screen.queryByText('the plans')).toBeNull();
  });

  it('announces the failure in its own words and loads again on "Try again"', async () => {
    const failed = query({ isError: true });
    render(<QueryState query={failed} {...words} content={() => 'the plans'} />);
    // The alert is the message alone: the button's label is not part of what is announced.
    expect(screen.getByRole('alert')).toHaveTextContent(/^Plans could not be loaded\.$/);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(failed.refetch).toHaveBeenCalledOnce();
  });

  it('says so when there is nothing, and shows the content otherwise', () => {
    const { rerender } = render(<QueryState query={query({})} {...words} isEmpty content={() => 'the plans'} />);
    expect(screen.getByText('No plans yet.')).toBeVisible();
    rerender(<QueryState query={query({})} {...words} content={() => 'the plans'} />);
    expect(screen.getByText('the plans')).toBeVisible();
  });
});
