import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DataTable, type DataTableColumn } from './data-table.js';

interface Row {
  id: string;
  name: string;
}

const rows: Row[] = Array.from({ length: 25 }, (_, index) => ({ id: `r${index + 1}`, name: `Row ${index + 1}` }));
const columns: DataTableColumn<Row>[] = [{ key: 'name', header: 'Name', render: (row) => row.name }];
const texts = {
  loadingText: 'Loading rows...',
  emptyText: 'No rows',
  errorText: 'Error loading rows',
  onRetry: vi.fn(),
};
/** Every prop of a table whose rows have arrived, but the rows. */
const loaded = { 'aria-label': 'rows', columns, rowKey: (row: Row) => row.id, loading: false, error: false, ...texts };

function bodyRows() {
  return within(screen.getAllByRole('rowgroup')[1]!).getAllByRole('row');
}

describe('DataTable', () => {
  it('shows the caller’s loading, error (with "Try again") and empty texts in a row of their own', async () => {
    const base = { 'aria-label': 'rows', columns, rowKey: (row: Row) => row.id, ...texts };
    const { rerender } = render(<DataTable {...base} rows={undefined} loading error={false} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading rows...');
    rerender(<DataTable {...base} rows={undefined} loading={false} error />);
    expect(screen.getByRole('alert')).toHaveTextContent('Error loading rows');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(texts.onRetry).toHaveBeenCalledOnce();
    rerender(<DataTable {...base} rows={[]} loading={false} error={false} />);
    expect(screen.getByText('No rows')).toBeInTheDocument();
  });

  it('pages in the browser, ten at a time, with "start–end of total" and the arrows', async () => {
    const user = userEvent.setup();
    render(
      <DataTable
        {...loaded}
        rows={rows}
        pagination={{ mode: 'client', pageSize: 10 }}
        actions={(row) => <button type="button">Edit {row.name}</button>}
      />,
    );
    expect(bodyRows()).toHaveLength(10);
    expect(screen.getByText('1–10 of 25')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Actions' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(screen.getByText('21–25 of 25')).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(5);
    expect(screen.getByRole('button', { name: 'Edit Row 21' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeDisabled();
  });

  it('asks the server for each page and shows the server’s total', async () => {
    const user = userEvent.setup();
    const asked: number[] = [];
    function ServerPaged() {
      const [page, setPage] = useState(0);
      return (
        <DataTable
          {...loaded}
          rows={rows.slice(page * 10, page * 10 + 10)}
          pagination={{
            mode: 'server',
            page,
            pageSize: 10,
            count: 25,
            onPageChange: (next) => {
              asked.push(next);
              setPage(next);
            },
          }}
        />
      );
    }
    render(<ServerPaged />);
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(screen.getByText('11–20 of 25')).toBeInTheDocument();
    expect(bodyRows()[0]).toHaveTextContent('Row 11');
    await user.click(screen.getByRole('button', { name: 'Go to previous page' }));
    expect(asked).toEqual([1, 0]);
    expect(screen.getByText('1–10 of 25')).toBeInTheDocument();
  });

  it('writes a large total with digit groups and keeps the first page from going back', () => {
    render(
      <DataTable
        {...loaded}
        rows={rows.slice(0, 10)}
        pagination={{ mode: 'server', page: 0, pageSize: 10, count: 1_234_567, onPageChange: () => undefined }}
      />,
    );
    expect(screen.getByText('1–10 of 1,234,567')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to previous page' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeEnabled();
  });

  it('opens a row by click and by keyboard', async () => {
    const user = userEvent.setup();
    const opened: string[] = [];
    render(<DataTable {...loaded} rows={rows.slice(0, 2)} onRowClick={(row) => opened.push(row.id)} />);
    await user.click(screen.getByText('Row 1'));
    bodyRows()[1]!.focus();
    await user.keyboard('{Enter}');
    expect(opened).toEqual(['r1', 'r2']);
  });

  it('leaves a button inside a row to do its own thing, without opening the row', async () => {
    const user = userEvent.setup();
    const opened: string[] = [];
    const filtered: string[] = [];
    const withButton: DataTableColumn<Row>[] = [
      {
        key: 'name',
        header: 'Name',
        render: (row) => (
          <button type="button" onClick={() => filtered.push(row.id)}>
            Filter by {row.name}
          </button>
        ),
      },
    ];
    render(
      <DataTable
        aria-label="rows"
        columns={withButton}
        rows={rows.slice(0, 1)}
        rowKey={(row) => row.id}
        loading={false}
        error={false}
        {...texts}
        onRowClick={(row) => opened.push(row.id)}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Filter by Row 1' }));
    expect(filtered).toEqual(['r1']);
    expect(opened).toEqual([]);
  });
});
