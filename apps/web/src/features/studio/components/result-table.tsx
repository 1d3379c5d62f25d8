import type { ReportRunResult } from '@dataplatform/contract';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import { memo } from 'react';
import type { ColumnSort } from '../report-view.js';

const NUMERIC =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|REAL|DECIMAL|NUMERIC|INT|INT2|INT4|INT8|FLOAT4|FLOAT8)/i;

/** Whether a column of this engine type holds numbers (right-aligned). */
export function isNumericType(type: string): boolean {
  return NUMERIC.test(type);
}

// One formatter for every cell: `toLocaleString` with options builds a new one per call.
const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A cell's text: numbers grouped, nulls as a dash. */
export function cellText(value: unknown, type: string): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number' || (typeof value === 'string' && isNumericType(type) && value.trim() !== '')) {
    const number = Number(value);
    if (Number.isFinite(number)) return NUMBER.format(number);
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

function columnAlignment(result: ReportRunResult): ('right' | 'left')[] {
  return result.columns.map((column) => (isNumericType(column.type) ? 'right' : 'left'));
}

/**
 * The body: most of a table's work (hundreds of cells), so it renders again only for other rows,
 * not when the table around it does (a new sort arrow, a block redrawn while its next rows wait).
 */
const ResultRows = memo(function ResultRows({ result }: { result: ReportRunResult }) {
  const align = columnAlignment(result);
  return (
    <TableBody>
      {result.rows.map((row, index) => (
        <TableRow key={index}>
          {result.columns.map((column, columnIndex) => (
            <TableCell key={column.name} align={align[columnIndex]}>
              {cellText(row[columnIndex], column.type)}
            </TableCell>
          ))}
        </TableRow>
      ))}
    </TableBody>
  );
});

/**
 * The rows of a query as a table, its headers sorting when `onSort` is given. It scrolls sideways
 * in its own focusable region on a narrow screen.
 */
export function ResultTable({
  label,
  result,
  sort,
  onSort,
}: {
  label: string;
  result: ReportRunResult;
  sort?: ColumnSort | undefined;
  onSort?: (column: string) => void;
}) {
  const align = columnAlignment(result);
  // The cells' look is the table's (one style for hundreds of cells, not one `sx` per cell).
  return (
    <TableContainer sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label}>
      <Table
        size="small"
        aria-label={label}
        sx={{
          '& th, & td': { whiteSpace: 'nowrap' },
          '& th': { fontWeight: 600 },
          '& td': { fontVariantNumeric: 'tabular-nums' },
        }}
      >
        <TableHead>
          <TableRow>
            {result.columns.map((column, columnIndex) => {
              const active = sort?.column === column.name;
              return (
                <TableCell key={column.name} align={align[columnIndex]} sortDirection={active ? sort.direction : false}>
                  {onSort ? (
                    <TableSortLabel
                      active={active}
                      direction={active ? sort.direction : 'asc'}
                      onClick={() => onSort(column.name)}
                    >
                      {column.name}
                    </TableSortLabel>
                  ) : (
                    column.name
                  )}
                </TableCell>
              );
            })}
          </TableRow>
        </TableHead>
        <ResultRows result={result} />
      </Table>
    </TableContainer>
  );
}
