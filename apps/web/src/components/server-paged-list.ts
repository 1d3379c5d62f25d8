import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { listQueryProps, useServerPage, useServerPagination } from './data-table.js';

/** A page of a collection as the API answers it: `{ data, count }`, `count` the total. */
interface ListPage<TRow> {
  data: TRow[];
  count: number;
}

/**
 * A list the server pages, for DataTable: the page (`useServerPage`), its query (built by `options`
 * from the page's skip and limit) and the pager (`useServerPagination`). `table` is what DataTable
 * needs of them (rows, loading and error rows, "Try again", the pager): spread it into the table.
 */
export function useServerPagedList<TRow, TKey extends QueryKey>(
  pageSize: number,
  options: (page: { skip: number; limit: number }) => UseQueryOptions<ListPage<TRow>, Error, ListPage<TRow>, TKey>,
) {
  const paging = useServerPage(pageSize);
  const query = useQuery(options({ skip: paging.skip, limit: paging.limit }));
  const pagination = useServerPagination(paging, query.data?.count);
  return { paging, query, table: { ...listQueryProps(query), pagination } };
}
