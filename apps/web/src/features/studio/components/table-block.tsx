import type { ReportBlockPublic, ReportRunResult } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import { Pager } from '../../../components/data-table.js';
import { BlockFrame, type BlockState } from './block-frame.js';
import { ResultTable, type ColumnSort } from './result-table.js';

/** A table block: one page from the server, "start–end of total", sorted by a column's header. */
export function TableBlock({
  block,
  result,
  state,
  page,
  onPageChange,
  sort,
  onSort,
}: {
  block: ReportBlockPublic;
  result: ReportRunResult | undefined;
  state: BlockState;
  page: number;
  onPageChange: (page: number) => void;
  sort: ColumnSort | undefined;
  onSort: (column: string) => void;
}) {
  const title = block.title ?? 'Table';
  return (
    <BlockFrame title={block.title} state={state} minHeight={160}>
      {result ? (
        <Box sx={{ minWidth: 0 }}>
          <ResultTable label={`${title}: rows`} result={result} sort={sort} onSort={onSort} />
          <Pager page={page} pageSize={block.table!.page_size} count={result.count} onPageChange={onPageChange} />
        </Box>
      ) : undefined}
    </BlockFrame>
  );
}
