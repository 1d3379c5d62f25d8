import type { AgentBlockParam, ReportRunResult, SharedBlock } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { LoadingLine } from '../../../components/loading-line.js';
import { LoadFailure } from '../../../components/query-state.js';
import { ChartBlock } from '../components/chart-block.js';
import { KpiBlock } from '../components/kpi-block.js';
import type { BlockState, ColumnSort } from '../report-view.js';
import type { AnswerBlock } from './answer-block.js';
import { CODE_TEXT_SX } from './code-text.js';

// A table (its pager, its download icon) loads when a table is drawn: a figure or a chart needs none of it.
const TableBlock = lazy(() =>
  import('../components/table-block.js').then((module) => ({ default: module.TableBlock })),
);

/** An answer's block read from its report text, in a chunk of its own (the YAML parser). */
export function useAnswerBlock(report: string, params: Record<string, AgentBlockParam>) {
  return useQuery({
    queryKey: ['agent', 'block', report, params],
    queryFn: () => import('./answer-block.js').then((module) => module.answerBlockOf(report, params)),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    meta: { errorToast: false },
  });
}

/** A block as Studio draws it: a KPI, a chart (with View as table) or a server-paged table. */
export function DrawnBlock({
  block,
  result,
  state,
  page = 0,
  onPageChange,
  sort,
  onSort,
}: {
  block: SharedBlock;
  result: ReportRunResult | undefined;
  state: BlockState;
  page?: number;
  onPageChange?: (page: number) => void;
  sort?: ColumnSort | undefined;
  onSort?: (column: string) => void;
}) {
  if (block.kind === 'kpi') return <KpiBlock block={block} result={result} state={state} />;
  if (block.kind === 'chart') return <ChartBlock block={block} result={result} state={state} />;
  return (
    <Suspense fallback={<LoadingLine sx={{ color: 'text.secondary' }}>Loading the table...</LoadingLine>}>
      <TableBlock
        block={block}
        result={result}
        state={state}
        page={page}
        onPageChange={onPageChange ?? (() => undefined)}
        sort={sort}
        onSort={onSort ?? (() => undefined)}
      />
    </Suspense>
  );
}

/** An answer's block once read, else its loading line or why it could not be read. */
export function WithAnswerBlock({
  read,
  children,
}: {
  read: ReturnType<typeof useAnswerBlock>;
  children: (block: AnswerBlock) => ReactNode;
}) {
  if (read.isError) return <LoadFailure>The answer’s block could not be drawn.</LoadFailure>;
  if (read.isPending) return <LoadingLine sx={{ color: 'text.secondary' }}>Drawing the answer...</LoadingLine>;
  return <>{children(read.data)}</>;
}

/** Text folded under an answer (its SQL, its YAML): a native disclosure, reached and opened by keyboard. */
export function Folded({ summary, children }: { summary: string; children: string }) {
  return (
    <Box
      component="details"
      sx={{
        '& > summary': { cursor: 'pointer', py: 0.5, color: 'text.secondary', typography: 'body2', fontWeight: 600 },
        '& > summary:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', borderRadius: 0.5 },
      }}
    >
      <summary>{summary}</summary>
      <Box
        component="pre"
        tabIndex={0}
        aria-label={summary}
        sx={{
          m: 0,
          mt: 0.5,
          p: 1.5,
          overflow: 'auto',
          maxHeight: 320,
          ...CODE_TEXT_SX,
        }}
      >
        {children}
      </Box>
    </Box>
  );
}

/** A preview's rows as a run result, for a block drawn from a compile's answer. */
export function previewResult(preview: { columns: ReportRunResult['columns']; rows: unknown[][] }): ReportRunResult {
  return { columns: preview.columns, rows: preview.rows, count: preview.rows.length, cached: false, elapsed_ms: 0 };
}
