import type { SharedBlock, ReportRunResult } from '@dataplatform/contract';
import Button from '@mui/material/Button';
import { useEffect, useMemo, useState } from 'react';
import type { BlockState } from '../report-view.js';
import { BlockFrame } from './block-frame.js';
import { ResultTable } from './result-table.js';
import VegaChart from './vega-chart.js';
import { startChartWorker } from '../chart/chart-picture.js';

/** A chart block, with "View as table" so a keyboard and a screen reader reach its numbers. */
export function ChartBlock({
  block,
  result,
  state,
}: {
  block: SharedBlock;
  result: ReportRunResult | undefined;
  state: BlockState;
}) {
  const [asTable, setAsTable] = useState(false);
  // Fetched while the block's rows are on their way, not after they arrive: the two downloads overlap.
  useEffect(() => void startChartWorker(), []);
  const title = block.title ?? 'Chart';
  const values = useMemo(
    () =>
      (result?.rows ?? []).map((row) =>
        Object.fromEntries(result!.columns.map((column, index) => [column.name, row[index]])),
      ),
    [result],
  );
  const spec = block.chart!.spec;
  return (
    <BlockFrame
      title={block.title}
      state={state}
      minHeight={240}
      action={
        <Button size="small" onClick={() => setAsTable((shown) => !shown)} aria-pressed={asTable}>
          {asTable ? 'View as chart' : 'View as table'}
        </Button>
      }
    >
      {asTable && result ? (
        <ResultTable label={`${title}: the chart's numbers`} result={result} />
      ) : (
        <VegaChart spec={spec} values={values} description={`${title}. Use View as table to read its numbers.`} />
      )}
    </BlockFrame>
  );
}
