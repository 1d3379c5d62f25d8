import {
  BUILT_IN_REPORT_HEADERS,
  type ReportExport,
  type ReportParamPublic,
  type ReportRun,
  type ReportRunResult,
  type SharedBlock,
} from '@dataplatform/contract';
import Box from '@mui/material/Box';
import { skipToken, useMutation, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useDeferredValue, useMemo, type ReactNode } from 'react';
import SHOWCASE_SCREENS from 'virtual:showcase-reports';
import { useSearchParams } from 'react-router';
import { errorText } from '../../../lib/api-error.js';
import { ReportLoadFailure } from './report-load-failure.js';
import type { DownloadedFile } from '../../../lib/api-client.js';
import { saveFile } from '../../../lib/save-file.js';
import { showToast } from '../../../lib/toast-store.js';
import {
  exportBlock,
  reportChartSource,
  reportQueryOptions,
  runBlockQueryOptions,
  type ChartSource,
} from '../api/reports.js';
import {
  PAGE_PREFIX,
  SORT_PREFIX,
  blockPage,
  blockRunRequest,
  blockState,
  defaultText,
  nextSort,
  paramValues,
  parseSort,
  type ParamValues,
} from '../report-view.js';

import { ChartBlock } from './chart-block.js';
import { KpiBlock } from './kpi-block.js';
import { ParamBar } from './param-bar.js';
import { ReportHeader } from './report-header.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { earlyDrawing } from '../chart/early-drawings.js';
import { TextBlock } from './text-block.js';
import { TableBlock } from './table-block.js';
import { EditReportButton, ShareReportButton } from './write-actions.js';

/**
 * How a viewer runs its blocks: a signed-in report's runs, a share link's or an embed token's
 * (issue 58). Each draws the same blocks; only the calls and what they allow differ.
 */
export interface BlockRunner {
  /** One block's run (its page and sort in the request): a hook, called as the block renders. */
  useRun: (request: ReportRun, enabled: boolean) => UseQueryResult<ReportRunResult>;
  /** A table's whole result as a file, where the viewer offers it. */
  download?: (request: ReportExport) => Promise<DownloadedFile>;
  /** Where the server draws a chart block (its SVG first, Download PNG and SVG); without: drawn here. */
  chartSource?: (block: SharedBlock, params: ParamValues) => ChartSource;
}

/** One block, running its own query: it loads, fails and retries without the others. */
function Block({ block, params, runner }: { block: SharedBlock; params: ParamValues; runner: BlockRunner }) {
  const [search, setSearch] = useSearchParams();
  const page = blockPage(block, search);
  const sort = parseSort(search.get(SORT_PREFIX + block.id));
  const request = blockRunRequest(block, params, search);
  const run = runner.useRun(request, block.kind !== 'text');
  const download = useMutation({
    mutationFn: () => runner.download!({ block: block.id, params, ...(sort ? { sort: [sort] } : {}) }),
    onSuccess: ({ blob, filename }) => saveFile(blob, filename),
    onError: (error) => showToast(`The download failed: ${errorText(error)}`, 'error'),
    meta: { errorToast: false },
  });
  // New rows are drawn in the background (a transition React does in slices, yielding to input),
  // not in one long task as they arrive: meanwhile the block shows the rows it had, or still loads.
  const result = useDeferredValue(run.data);

  if (block.kind === 'text') {
    return <TextBlock title={block.title} html={block.html ?? ''} />;
  }
  const state = blockState(
    { isPending: result === undefined, isError: run.isError, error: run.error, refetch: run.refetch },
    result !== undefined && result.rows.length === 0 && page === 0,
  );
  if (block.kind === 'kpi') return <KpiBlock block={block} result={result} state={state} />;
  if (block.kind === 'chart') {
    return (
      <ChartBlock
        block={block}
        result={result}
        state={state}
        {...(runner.chartSource ? { source: runner.chartSource(block, params) } : {})}
      />
    );
  }

  const setPage = (next: number) =>
    setSearch(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 0) updated.delete(PAGE_PREFIX + block.id);
        else updated.set(PAGE_PREFIX + block.id, String(next + 1));
        return updated;
      },
      { preventScrollReset: true },
    );
  const setSort = (column: string) =>
    setSearch(
      (current) => {
        const updated = new URLSearchParams(current);
        const { direction } = nextSort(sort, column);
        updated.set(SORT_PREFIX + block.id, `${column}:${direction}`);
        updated.delete(PAGE_PREFIX + block.id);
        return updated;
      },
      { preventScrollReset: true },
    );
  return (
    <TableBlock
      block={block}
      result={result}
      state={state}
      page={page}
      onPageChange={setPage}
      sort={sort}
      onSort={setSort}
      onDownload={runner.download ? () => download.mutate() : undefined}
      downloading={download.isPending}
    />
  );
}

/** A report's blocks: KPIs side by side, charts, tables and text across. */
export function ReportBlocks({
  blocks,
  params,
  runner,
}: {
  blocks: readonly SharedBlock[];
  params: ParamValues;
  runner: BlockRunner;
}) {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 220px), 1fr))',
        '& > .wide': { gridColumn: '1 / -1' },
      }}
    >
      {blocks.map((block) => (
        <Box key={block.id} className={block.kind === 'kpi' ? undefined : 'wide'} sx={{ minWidth: 0 }}>
          <Block block={block} params={params} runner={runner} />
        </Box>
      ))}
    </Box>
  );
}

/**
 * The parameters' values in the URL: `next`'s, a default's left out; every table back at its first
 * page (new parameters, new results).
 */
export function searchWithParams(
  current: URLSearchParams,
  params: readonly ReportParamPublic[],
  next: ParamValues,
): URLSearchParams {
  const updated = new URLSearchParams(current);
  for (const param of params) {
    const value = next[param.name] ?? '';
    if (value === defaultText(param)) updated.delete(param.name);
    else updated.set(param.name, value);
  }
  for (const key of [...updated.keys()]) if (key.startsWith(PAGE_PREFIX)) updated.delete(key);
  return updated;
}

/**
 * A chart's drawing only if the frame's script asked for it (chart/early-drawings.ts), else
 * none; nothing to download yet (the viewer, taking over, would close a menu opened now).
 */
function earlyOnly({ file: _file, ...source }: ChartSource): ChartSource {
  return {
    ...source,
    svg: (theme, width, signal) =>
      new Promise<string>((resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        const asked = source.early === undefined ? undefined : earlyDrawing(source.early);
        if (asked?.theme === theme && asked.width === width) {
          void asked.svg.then((svg) => {
            if (svg !== null) resolve(svg);
          });
        }
      }),
  };
}

/**
 * The runs of a report's pending screen: a query nothing answers, so its blocks stay loading. Not
 * the blocks' own runs: the route loader's answers may arrive while the frame is still hydrating,
 * and a query that changed then would make React discard the frame's markup (error 418).
 */
const PENDING_RUN_KEY = ['report-pending-run'] as const;

/**
 * A built-in report before its definition and runs arrive (decision 064): its parameters and its
 * blocks down to its first chart, laid out as the viewer lays them out, each block loading. The
 * showcase pages' prerendered frame is this, so the viewer takes over without moving anything, and
 * the first chart's box is there for the server's drawing the frame's script asked for. Its
 * blocks run nothing and its charts are only ever the early drawings: a frame shown before the
 * guard has run asks the API for no report data.
 */
function PendingScreen({ reportKey, id }: { reportKey: string; id: string }) {
  const screen = SHOWCASE_SCREENS[reportKey];
  const [search, setSearch] = useSearchParams();
  const values = useMemo(() => paramValues(screen?.params ?? [], search), [screen, search]);
  const runner = useMemo<BlockRunner>(
    () => ({
      useRun: () => useQuery<ReportRunResult>({ queryKey: PENDING_RUN_KEY, queryFn: skipToken }),
      chartSource: (block, params) => earlyOnly(reportChartSource(id, block.id, params, `${reportKey}-${block.id}`)),
    }),
    [id, reportKey],
  );
  if (!screen) return <ReportLoading />;
  return (
    <>
      {screen.params.length > 0 ? (
        <ParamBar
          report={{ id, version: 1 }}
          params={screen.params}
          values={values}
          onApply={(next) =>
            setSearch((current) => searchWithParams(current, screen.params, next), { preventScrollReset: true })
          }
        />
      ) : undefined}
      <ReportBlocks blocks={screen.blocks} params={values} runner={runner} />
    </>
  );
}

function ReportLoading() {
  return <LoadingLine sx={{ py: 6, color: 'text.secondary' }}>Loading the report...</LoadingLine>;
}

/**
 * A report before its definition arrives (`children`: the failure that came instead). A built-in
 * report's heading is known ahead (the contract's BUILT_IN_REPORT_HEADERS), and so is its first
 * screen (PendingScreen): they show at once, as the showcase pages' prerendered frame has them.
 */
export function ReportPending({ reportKey, children }: { reportKey: string; children?: ReactNode }) {
  const known = Object.hasOwn(BUILT_IN_REPORT_HEADERS, reportKey)
    ? BUILT_IN_REPORT_HEADERS[reportKey as keyof typeof BUILT_IN_REPORT_HEADERS]
    : undefined;
  if (!known) return children ?? <ReportLoading />;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <ReportHeader title={known.title} description={known.description} source={known.source} version={null} />
      {children ?? <PendingScreen reportKey={reportKey} id={known.id} />}
    </Box>
  );
}

/**
 * A report: its parameter bar, then its blocks (KPIs side by side, charts, tables and text across).
 * The parameters, each table's page and sort live in the URL, so a link reproduces the view.
 */
export function ReportViewer({ reportKey }: { reportKey: string }) {
  const report = useQuery(reportQueryOptions(reportKey));
  const [search, setSearch] = useSearchParams();

  const values = useMemo(() => paramValues(report.data?.params ?? [], search), [report.data, search]);
  const runner = useMemo<BlockRunner | undefined>(() => {
    const data = report.data;
    if (!data) return undefined;
    return {
      useRun: (request, enabled) => useQuery({ ...runBlockQueryOptions(data.id, data.version, request), enabled }),
      chartSource: (block, params) => reportChartSource(data.id, block.id, params, `${data.slug}-${block.id}`),
      download: (request) => exportBlock(data.id, request),
    };
  }, [report.data]);

  if (report.isPending) return <ReportPending reportKey={reportKey} />;
  if (report.isError) {
    return (
      <ReportPending reportKey={reportKey}>
        <ReportLoadFailure query={report} describe={errorText} />
      </ReportPending>
    );
  }

  const data = report.data;
  if (!runner) return <ReportPending reportKey={reportKey} />;
  const applyParams = (next: ParamValues) =>
    setSearch((current) => searchWithParams(current, data.params, next), { preventScrollReset: true });
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <ReportHeader
        title={data.title}
        description={data.description}
        source={data.source}
        version={data.built_in ? null : data.version}
        actions={
          data.built_in ? undefined : (
            <>
              <ShareReportButton report={data} values={values} />
              <EditReportButton reportId={data.slug} />
            </>
          )
        }
      />
      {data.params.length > 0 ? (
        <ParamBar report={data} params={data.params} values={values} onApply={applyParams} />
      ) : undefined}
      <ReportBlocks blocks={data.blocks} params={values} runner={runner} />
    </Box>
  );
}
