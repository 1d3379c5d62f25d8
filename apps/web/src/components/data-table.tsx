import KeyboardArrowLeft from '@mui/icons-material/KeyboardArrowLeft';
import KeyboardArrowRight from '@mui/icons-material/KeyboardArrowRight';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { LoadingLine } from './loading-line.js';
import { LoadFailure } from './query-state.js';
import { useDeferredValue, useEffect, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';

export interface DataTableColumn<TRow> {
  key: string;
  header: string;
  render: (row: TRow) => ReactNode;
  align?: 'left' | 'right' | 'center';
  minWidth?: number;
  /** Left out on screens narrower than MUI's `md` breakpoint (900 px): a detail the row can spare there. */
  wideOnly?: boolean;
}

/** A column's cell style: its minimum width, and hidden on narrow screens when it is wide-only. */
function cellSx<TRow>(column: DataTableColumn<TRow>) {
  return { minWidth: column.minWidth, ...(column.wideOnly ? { display: { xs: 'none', md: 'table-cell' } } : {}) };
}

/** The server pages (skip/limit); the table shows one page and the total. */
export interface ServerPagination {
  mode: 'server';
  /** Zero-based. */
  page: number;
  pageSize: number;
  count: number;
  onPageChange: (page: number) => void;
}

/** Every row is loaded; the table pages them itself. */
export interface ClientPagination {
  mode: 'client';
  pageSize: number;
}

export interface DataTableProps<TRow> {
  'aria-label': string;
  columns: readonly DataTableColumn<TRow>[];
  rows: readonly TRow[] | undefined;
  rowKey: (row: TRow) => string;
  loading: boolean;
  error: boolean;
  loadingText: string;
  emptyText: string;
  errorText: string;
  /** Loads the list again: the error row offers "Try again". */
  onRetry: () => void;
  /** The row's action buttons, in an "Actions" column. */
  actions?: (row: TRow) => ReactNode;
  /** Opens a row (by click, Enter or Space). */
  onRowClick?: (row: TRow) => void;
  /** Fetches the code of what opening a row shows, as the pointer or the focus reaches the table. */
  onRowPreload?: () => void;
  pagination?: ServerPagination | ClientPagination;
}

/** A page of a server-paged list: the zero-based page and the skip/limit to ask for. */
export function useServerPage(pageSize: number) {
  const [page, setPage] = useState(0);
  return { page, setPage, skip: page * pageSize, limit: pageSize };
}

/**
 * The table's pager for a page of `useServerPage`, given the count the list's query answered. A
 * deletion or a narrower search can leave the page past the end: it then goes to the last page there is.
 */
export function useServerPagination(
  { page, setPage, limit }: ReturnType<typeof useServerPage>,
  count: number | undefined,
): ServerPagination {
  useEffect(() => {
    if (count === undefined) return;
    const lastPage = Math.max(0, Math.ceil(count / limit) - 1);
    if (page > lastPage) setPage(lastPage);
  }, [count, limit, page, setPage]);
  return { mode: 'server', page, pageSize: limit, count: count ?? 0, onPageChange: setPage };
}

/** What a table needs of a list query (TanStack Query's result has it). */
export interface ListQuery<TRow> {
  data: { data: readonly TRow[] } | undefined;
  isPending: boolean;
  isError: boolean;
  refetch: () => Promise<unknown>;
}

/** A list query as the table's rows, loading and error rows and "Try again": spread into DataTable. */
export function listQueryProps<TRow>(query: ListQuery<TRow>) {
  return {
    rows: query.data?.data,
    loading: query.isPending,
    error: query.isError,
    onRetry: () => void query.refetch(),
  };
}

/**
 * A list as a table with its loading, error and empty rows (each in the caller's words), an
 * actions column and paging by the server or in the browser. It scrolls sideways on a narrow screen.
 */
export function DataTable<TRow>({
  'aria-label': ariaLabel,
  columns,
  rows,
  rowKey,
  loading,
  error,
  loadingText,
  emptyText,
  errorText,
  onRetry,
  actions,
  onRowClick,
  onRowPreload,
  pagination,
}: DataTableProps<TRow>) {
  const [clientPage, setClientPage] = useState(0);
  const columnCount = columns.length + (actions ? 1 : 0);
  // New rows (a list arriving, another page) render in the background, in slices the browser can
  // interrupt, rather than in one long task the moment the answer lands: until then the table keeps
  // what it showed (the loading row, or the rows before).
  const shownRows = useDeferredValue(rows);
  const arriving = shownRows !== rows;

  let visible: readonly TRow[] = shownRows ?? [];
  let page = 0;
  let count = visible.length;
  let onPageChange: (page: number) => void = () => undefined;
  if (pagination?.mode === 'server') {
    page = pagination.page;
    count = pagination.count;
    onPageChange = pagination.onPageChange;
  } else if (pagination?.mode === 'client') {
    // A deletion can leave the page past the end: show the last page that exists.
    const lastPage = Math.max(0, Math.ceil(visible.length / pagination.pageSize) - 1);
    page = Math.min(clientPage, lastPage);
    visible = visible.slice(page * pagination.pageSize, (page + 1) * pagination.pageSize);
    onPageChange = setClientPage;
  }

  let status: ReactNode;
  if ((loading || arriving) && shownRows === undefined) {
    status = <LoadingLine sx={{ display: 'inline-flex' }}>{loadingText}</LoadingLine>;
  } else if (error && shownRows === undefined) {
    status = <LoadFailure onRetry={onRetry}>{errorText}</LoadFailure>;
  } else if (visible.length === 0) {
    status = emptyText;
  }

  // A button or link inside the row (a filter, an action) does its own thing, not open the row too.
  const openOnClick = (row: TRow) => (event: MouseEvent) => {
    const control = event.target instanceof Element ? event.target.closest('button, a, input, select, textarea') : null;
    if (control !== null && event.currentTarget.contains(control)) return;
    onRowClick?.(row);
  };

  const openOnKey = (row: TRow) => (event: KeyboardEvent) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onRowClick?.(row);
    }
  };

  return (
    // minWidth 0: inside a grid or flex parent the table scrolls in its box instead of widening the page.
    <Paper variant="outlined" sx={{ minWidth: 0 }} onPointerEnter={onRowPreload} onFocus={onRowPreload}>
      {/* A region a keyboard can focus, so a table wider than the screen can be scrolled without a mouse. */}
      {/* An inline-size container, so the status row below can be as wide as what is in view (100cqi). */}
      <TableContainer
        sx={{ overflowX: 'auto', containerType: 'inline-size' }}
        tabIndex={0}
        role="region"
        aria-label={ariaLabel}
      >
        <Table aria-label={ariaLabel} size="medium">
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column.key} align={column.align} sx={{ ...cellSx(column), fontWeight: 600 }}>
                  {column.header}
                </TableCell>
              ))}
              {actions ? (
                <TableCell align="right" sx={{ fontWeight: 600 }}>
                  Actions
                </TableCell>
              ) : undefined}
            </TableRow>
          </TableHead>
          <TableBody>
            {status !== undefined ? (
              <TableRow>
                <TableCell colSpan={columnCount} sx={{ py: 4, px: 0, color: 'text.secondary' }}>
                  {/* The cell spans every column, wider than the screen on a narrow one: its text stays
                      centred in the part in view, and in view while the table scrolls sideways. */}
                  <Box
                    sx={{
                      position: 'sticky',
                      left: 0,
                      width: '100cqi',
                      px: 2,
                      boxSizing: 'border-box',
                      textAlign: 'center',
                    }}
                  >
                    {status}
                  </Box>
                </TableCell>
              </TableRow>
            ) : (
              visible.map((row) => (
                <TableRow
                  key={rowKey(row)}
                  hover={onRowClick !== undefined}
                  onClick={onRowClick ? openOnClick(row) : undefined}
                  onKeyDown={onRowClick ? openOnKey(row) : undefined}
                  tabIndex={onRowClick ? 0 : undefined}
                  sx={onRowClick ? { cursor: 'pointer' } : undefined}
                >
                  {columns.map((column) => (
                    <TableCell key={column.key} align={column.align} sx={cellSx(column)}>
                      {column.render(row)}
                    </TableCell>
                  ))}
                  {actions ? (
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }} onClick={(event) => event.stopPropagation()}>
                      {actions(row)}
                    </TableCell>
                  ) : undefined}
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {pagination && count > 0 && shownRows !== undefined ? (
        <Pager page={page} pageSize={pagination.pageSize} count={count} onPageChange={onPageChange} />
      ) : undefined}
    </Paper>
  );
}

/** 1234567 as "1,234,567", as the pager has always shown counts. */
function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * "start–end of total" and the previous and next arrows, as MUI's TablePagination shows them when
 * it offers no choice of page size. Not that component: it brings a page-size select (Select, Menu,
 * Popover, a third of this chunk) that no table here offers, and builds an Intl.NumberFormat when its
 * module loads, which set up the browser's number formatting in a long task on every list's first load.
 */
export function Pager({
  page,
  pageSize,
  count,
  onPageChange,
}: {
  page: number;
  pageSize: number;
  count: number;
  onPageChange: (page: number) => void;
}) {
  const from = page * pageSize + 1;
  const to = Math.min(count, (page + 1) * pageSize);
  const lastPage = Math.max(0, Math.ceil(count / pageSize) - 1);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', minHeight: 52, pl: 2, pr: 0.25 }}>
      <Typography variant="body2">{`${groupDigits(from)}–${groupDigits(to)} of ${groupDigits(count)}`}</Typography>
      <Box sx={{ flexShrink: 0, ml: 2.5 }}>
        <IconButton
          color="inherit"
          onClick={() => onPageChange(page - 1)}
          disabled={page === 0}
          aria-label="Go to previous page"
          title="Go to previous page"
        >
          <KeyboardArrowLeft />
        </IconButton>
        <IconButton
          color="inherit"
          onClick={() => onPageChange(page + 1)}
          disabled={page >= lastPage}
          aria-label="Go to next page"
          title="Go to next page"
        >
          <KeyboardArrowRight />
        </IconButton>
      </Box>
    </Box>
  );
}
