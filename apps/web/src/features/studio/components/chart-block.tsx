import type { ChartFormat, ReportRunResult, SharedBlock } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useColorScheme, useTheme } from '@mui/material/styles';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { closePopupMenu, PopupMenu, PopupMenuItem, popupMenuButtonProps } from '../../../components/popup-menu.js';
import { errorText } from '../../../lib/api-error.js';
import { saveFile } from '../../../lib/save-file.js';
import { showToast } from '../../../lib/toast-store.js';
import type { ChartSource } from '../api/reports.js';
import type { BlockState } from '../report-view.js';
import { BlockFrame } from './block-frame.js';
import { ResultTable } from './result-table.js';
import VegaChart from './vega-chart.js';
import { startChartWorker } from '../chart/chart-picture.js';

/** "Download" and its menu: the chart as the server draws it, PNG or SVG, in the page's theme and width. */
function ChartDownload({ source, blockId, width }: { source: ChartSource; blockId: string; width: () => number }) {
  const [busy, setBusy] = useState(false);
  const theme = useTheme();
  const { mode: chosen, systemMode } = useColorScheme();
  const mode = (chosen === 'system' ? systemMode : (chosen ?? theme.palette.mode)) === 'dark' ? 'dark' : 'light';
  const menuId = `chart-download-${blockId}`;
  const file = source.file;
  const download = (format: ChartFormat) => {
    closePopupMenu(menuId);
    if (!file) return;
    setBusy(true);
    file(format, mode, width())
      .then(({ blob, filename }) => saveFile(blob, filename))
      .catch((error: unknown) => showToast(`The download failed: ${errorText(error)}`, 'error'))
      .finally(() => setBusy(false));
  };
  return (
    <>
      <Button size="small" disabled={busy || !file} {...popupMenuButtonProps(menuId)}>
        Download
      </Button>
      <PopupMenu id={menuId}>
        <PopupMenuItem onClick={() => download('png')}>Download PNG</PopupMenuItem>
        <PopupMenuItem onClick={() => download('svg')}>Download SVG</PopupMenuItem>
      </PopupMenu>
    </>
  );
}

/**
 * A chart block, with "View as table" so a keyboard and a screen reader reach its numbers. A saved
 * report's chart (`source`) is the server's drawing first, and can be downloaded as PNG or SVG.
 */
export function ChartBlock({
  block,
  result,
  state,
  source,
}: {
  block: SharedBlock;
  result: ReportRunResult | undefined;
  state: BlockState;
  source?: ChartSource;
}) {
  const [asTable, setAsTable] = useState(false);
  const frame = useRef<HTMLDivElement>(null);
  // Drawn in the browser only without a server drawing: its worker is fetched while the block's rows
  // are on their way, not after they arrive, so the two downloads overlap.
  useEffect(() => {
    if (!source) startChartWorker();
  }, [source]);
  const title = block.title ?? 'Chart';
  const values = useMemo(
    () =>
      (result?.rows ?? []).map((row) =>
        Object.fromEntries(result!.columns.map((column, index) => [column.name, row[index]])),
      ),
    [result],
  );
  const picture = useCallback(
    (theme: 'light' | 'dark', width: number, signal: AbortSignal) => source!.svg(theme, width, signal),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the source by its key: a new object of the same drawing is the same drawing
    [source?.key],
  );
  const spec = block.chart!.spec;
  // The server's drawing comes by itself: the chart shows while its rows (for the table and the live
  // view) are still on their way.
  const frameState: BlockState = source && state.status === 'loading' ? { status: 'ready' } : state;
  return (
    <BlockFrame
      title={block.title}
      state={frameState}
      minHeight={240}
      action={
        <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: 0.5 }}>
          {source && !asTable ? (
            <ChartDownload
              source={source}
              blockId={block.id}
              width={() => Math.round(frame.current?.clientWidth ?? 0) || 640}
            />
          ) : null}
          {/* There while the rows are on their way (a server drawing shows first), so nothing moves when they come. */}
          <Button size="small" onClick={() => setAsTable((shown) => !shown)} aria-pressed={asTable} disabled={!result}>
            {asTable ? 'View as chart' : 'View as table'}
          </Button>
        </Box>
      }
    >
      {asTable && result ? (
        <ResultTable label={`${title}: the chart's numbers`} result={result} />
      ) : (
        <Box ref={frame}>
          <VegaChart
            spec={spec}
            values={values}
            description={`${title}. Use View as table to read its numbers.`}
            {...(source ? { picture, early: source.early } : {})}
          />
        </Box>
      )}
    </BlockFrame>
  );
}
