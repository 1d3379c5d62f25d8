import type { ReportBlockPublic, ReportPublic } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { errorText } from '../../../lib/api-error.js';
import { ReportLoadFailure } from './report-load-failure.js';
import { saveFile } from '../../../lib/save-file.js';
import { showToast } from '../../../lib/toast-store.js';
import { exportBlock, reportQueryOptions, runBlockQueryOptions } from '../api/reports.js';
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
import { ReportHeader, ReportPending } from './report-header.js';
import { TextBlock } from './text-block.js';
import { TableBlock } from './table-block.js';
import { EditReportButton } from './write-actions.js';

/** One block, running its own query: it loads, fails and retries without the others. */
function Block({ report, block, params }: { report: ReportPublic; block: ReportBlockPublic; params: ParamValues }) {
  const [search, setSearch] = useSearchParams();
  const page = blockPage(block, search);
  const sort = parseSort(search.get(SORT_PREFIX + block.id));
  const request = blockRunRequest(block, params, search);
  const run = useQuery({ ...runBlockQueryOptions(report.id, report.version, request), enabled: block.kind !== 'text' });
  const download = useMutation({
    mutationFn: () => exportBlock(report.id, { block: block.id, params, ...(sort ? { sort: [sort] } : {}) }),
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
        source={{ reportId: report.id, block: block.id, params, name: `${report.slug}-${block.id}` }}
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
      onDownload={() => download.mutate()}
      downloading={download.isPending}
    />
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

  if (report.isPending) return <ReportPending reportKey={reportKey} />;
  if (report.isError) {
    return (
      <ReportPending reportKey={reportKey}>
        <ReportLoadFailure query={report} describe={errorText} />
      </ReportPending>
    );
  }

  const data = report.data;
  const applyParams = (next: ParamValues) =>
    setSearch(
      (current) => {
        const updated = new URLSearchParams(current);
        for (const param of data.params) {
          const value = next[param.name] ?? '';
          if (value === defaultText(param)) updated.delete(param.name);
          else updated.set(param.name, value);
        }
        // New parameters, new results: every table starts at its first page.
        for (const key of [...updated.keys()]) if (key.startsWith(PAGE_PREFIX)) updated.delete(key);
        return updated;
      },
      { preventScrollReset: true },
    );
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <ReportHeader
        title={data.title}
        description={data.description}
        source={data.source}
        version={data.built_in ? null : data.version}
        actions={data.built_in ? undefined : <EditReportButton reportId={data.slug} />}
      />
      {data.params.length > 0 ? (
        <ParamBar report={data} params={data.params} values={values} onApply={applyParams} />
      ) : undefined}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 220px), 1fr))',
          '& > .wide': { gridColumn: '1 / -1' },
        }}
      >
        {data.blocks.map((block) => (
          <Box key={block.id} className={block.kind === 'kpi' ? undefined : 'wide'} sx={{ minWidth: 0 }}>
            <Block report={data} block={block} params={values} />
          </Box>
        ))}
      </Box>
    </Box>
  );
}
