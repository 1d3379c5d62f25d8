import {
  publicReportBlock,
  publicReportParams,
  type ReportBlockPublic,
  type ReportDefinition,
} from '@dataplatform/contract';
import { reportTextHtml } from '@dataplatform/contract/markdown';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { previewQueryOptions } from '../api/editor.js';
import { ChartBlock } from '../components/chart-block.js';
import { KpiBlock } from '../components/kpi-block.js';
import { ParamBar } from '../components/param-bar.js';
import { TextBlock } from '../components/text-block.js';
import { runRequestOf } from '@dataplatform/contract';
import { blockState, defaultText, type ParamValues } from '../report-view.js';
import { TableBlock } from '../components/table-block.js';
import { useBlockPaging } from '../components/use-block-paging.js';

/** One block of the unsaved text, run through `POST /preview` on its own (it loads and fails alone). */
function PreviewBlock({
  text,
  definition,
  block,
  params,
}: {
  text: string;
  definition: ReportDefinition;
  block: ReportBlockPublic;
  /** The values chosen in the bar that differ from the defaults (the server applies the rest). */
  params: ParamValues;
}) {
  const paging = useBlockPaging();
  // New parameters, new results: a table starts again at its first page.
  const paramsKey = JSON.stringify(params);
  const [pagedWith, setPagedWith] = useState(paramsKey);
  if (pagedWith !== paramsKey) {
    setPagedWith(paramsKey);
    paging.onPageChange(0);
  }
  const request = runRequestOf(block, params, paging.page, paging.sort);
  const inputs = { source: definition.source, params: definition.params ?? {}, block, request };
  const run = useQuery({
    ...previewQueryOptions({ definition: text, ...request }, inputs),
    enabled: block.kind !== 'text',
  });
  if (block.kind === 'text') {
    return <TextBlock title={block.title} html={block.html ?? ''} />;
  }
  const state = blockState(run, run.data !== undefined && run.data.rows.length === 0 && paging.page === 0);

  if (block.kind === 'kpi') return <KpiBlock block={block} result={run.data} state={state} />;
  if (block.kind === 'chart') return <ChartBlock block={block} result={run.data} state={state} />;
  return <TableBlock block={block} result={run.data} state={state} {...paging} />;
}

/**
 * The live preview (STUDIO-EDIT-3): the blocks of the last text that passed the schema, each run on
 * its own with the values chosen in the viewer's parameter bar (the defaults until one is chosen).
 * A block whose query, source and parameters did not change keeps its answer: typing in one block
 * runs that block alone.
 */
export function EditorPreview({
  text,
  definition,
  stale,
  saved,
  values,
  onValuesChange,
}: {
  text: string;
  definition: ReportDefinition;
  stale: boolean;
  /** The saved report, whose select queries give their values; a new report's selects are typed. */
  saved: { id: string; version: number } | undefined;
  /** Chosen parameter values, kept by the editor while the preview is out of view. */
  values: ParamValues;
  onValuesChange: (values: ParamValues) => void;
}) {
  const params = useMemo(() => publicReportParams(definition), [definition]);
  // Kept by identity while nothing changed: the bar starts its inputs again from a new object.
  const { shown, chosen } = useMemo(() => {
    const inBar: ParamValues = {};
    const sent: ParamValues = {};
    for (const param of params) {
      const value = values[param.name];
      inBar[param.name] = value ?? defaultText(param);
      if (value !== undefined && value !== defaultText(param)) sent[param.name] = value;
    }
    return { shown: inBar, chosen: sent };
  }, [params, values]);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {stale ? (
        <Typography variant="body2" color="text.secondary" role="status">
          The text has problems: the preview shows the last text without any.
        </Typography>
      ) : undefined}
      {params.length > 0 ? (
        <ParamBar
          {...(saved ? { report: saved } : {})}
          params={params}
          values={shown}
          onApply={(next) => onValuesChange({ ...values, ...next })}
        />
      ) : undefined}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 200px), 1fr))',
          '& > .wide': { gridColumn: '1 / -1' },
        }}
      >
        {definition.blocks.map((block) => {
          // As the server will send it once saved: a text block's HTML rendered by the same function.
          const shown = publicReportBlock(block, reportTextHtml);
          return (
            <Box key={block.id} className={shown.kind === 'kpi' ? undefined : 'wide'} sx={{ minWidth: 0 }}>
              <PreviewBlock text={text} definition={definition} block={shown} params={chosen} />
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
