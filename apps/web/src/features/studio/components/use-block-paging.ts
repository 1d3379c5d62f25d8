import { useState } from 'react';
import { nextSort, type ColumnSort } from '../report-view.js';

/**
 * A table block's page and sort held by the component, where the URL does not keep them (the
 * editor's preview, an agent's answer): a new sort starts again at the first page. Its fields are
 * a table block's props of the same names.
 */
export function useBlockPaging() {
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<ColumnSort | undefined>(undefined);
  const onSort = (column: string) => {
    setSort((current) => nextSort(current, column));
    setPage(0);
  };
  return { page, onPageChange: setPage, sort, onSort };
}
