import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TransferList } from './transfer-list.js';

const ITEMS = [
  { id: 'a', label: 'admin' },
  { id: 'b', label: 'billing' },
  { id: 'c', label: 'download_report' },
];

function Harness({ initial, changes }: { initial: string[]; changes: string[][] }) {
  const [selected, setSelected] = useState(initial);
  return (
    <TransferList
      items={ITEMS}
      selectedIds={selected}
      onChange={(next) => {
        changes.push(next);
        setSelected(next);
      }}
    />
  );
}

function side(name: 'Available Items' | 'Selected Items') {
  return within(screen.getByRole('list', { name }));
}

function labels(name: 'Available Items' | 'Selected Items') {
  return side(name)
    .queryAllByRole('checkbox')
    .map((box) => box.getAttribute('aria-labelledby'))
    .map((id) => document.getElementById(id ?? '')?.textContent);
}

describe('TransferList', () => {
  it('puts the selected ids on the right and the rest on the left', () => {
    render(<Harness initial={['b']} changes={[]} />);
    expect(labels('Available Items')).toEqual(['admin', 'download_report']);
    expect(labels('Selected Items')).toEqual(['billing']);
  });

  it('moves checked items each way and emits the whole selected set, in the items’ order', async () => {
    const user = userEvent.setup();
    const changes: string[][] = [];
    render(<Harness initial={['b']} changes={changes} />);
    expect(screen.getByRole('button', { name: 'move selected right' })).toBeDisabled();

    await user.click(side('Available Items').getByText('download_report'));
    await user.click(side('Available Items').getByText('admin'));
    await user.click(screen.getByRole('button', { name: 'move selected right' }));
    expect(changes.at(-1)).toEqual(['a', 'b', 'c']);
    expect(labels('Available Items')).toEqual([]);

    await user.click(side('Selected Items').getByText('billing'));
    await user.click(screen.getByRole('button', { name: 'move selected left' }));
    expect(changes.at(-1)).toEqual(['a', 'c']);
    expect(labels('Available Items')).toEqual(['billing']);
    // A moved item arrives unchecked.
    expect(side('Available Items').getByRole('checkbox')).not.toBeChecked();
  });

  it('moves everything with the all-buttons, each disabled when its side is empty', async () => {
    const user = userEvent.setup();
    const changes: string[][] = [];
    render(<Harness initial={[]} changes={changes} />);
    expect(screen.getByRole('button', { name: 'move all left' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'move all right' }));
    expect(changes.at(-1)).toEqual(['a', 'b', 'c']);
    expect(screen.getByRole('button', { name: 'move all right' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'move all left' }));
    expect(changes.at(-1)).toEqual([]);
    expect(labels('Available Items')).toHaveLength(3);
  });
});
