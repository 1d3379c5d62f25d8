import type { SharedBlock, ReportRunResult } from '@dataplatform/contract';
import Download from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { Pager } from '../../../components/data-table.js';
import type { BlockState } from '../report-view.js';
import { BlockFrame } from './block-frame.js';
import type { ColumnSort } from '../report-view.js';
import { ResultTable } from './result-table.js';

/**
 * A table block: one page from the server, "start–end of total", sorted by a column's header, and
 * the whole result as a CSV file in that order.
 */
export function TableBlock({
  block,
  result,
  state,
  page,
  onPageChange,
  sort,
  onSort,
  onDownload,
  downloading,
}: {
  block: SharedBlock;
  result: ReportRunResult | undefined;
  state: BlockState;
  page: number;
  onPageChange: (page: number) => void;
  sort: ColumnSort | undefined;
  onSort: (column: string) => void;
  /** Omitted (the editor's preview of an unsaved report): no download. */
  onDownload?: () => void;
  downloading?: boolean;
}) {
  const title = block.title ?? 'Table';
  return (
    <BlockFrame
      title={block.title}
      state={state}
      minHeight={160}
      action={
        onDownload ? (
          <Button
            size="small"
            startIcon={<Download />}
            loading={downloading ?? false}
            loadingPosition="start"
            onClick={onDownload}
            aria-label={`Download ${title} as CSV`}
          >
            CSV
          </Button>
        ) : undefined
      }
    >
      {result ? (
        <Box sx={{ minWidth: 0 }}>
          <ResultTable label={`${title}: rows`} result={result} sort={sort} onSort={onSort} />
          <Pager page={page} pageSize={block.table!.page_size} count={result.count} onPageChange={onPageChange} />
        </Box>
      ) : undefined}
    </BlockFrame>
  );
}
