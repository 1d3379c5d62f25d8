import type { SharedBlock, ReportRunResult } from '@dataplatform/contract';
import Typography from '@mui/material/Typography';
import type { BlockState } from '../report-view.js';
import { BlockFrame } from './block-frame.js';

const formats = {
  number: new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }),
  integer: new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }),
  currency: new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }),
  percent: new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }),
} as const;

/** A KPI's figure in its format; text and missing values as they are. */
export function formatKpi(value: unknown, format: keyof typeof formats | undefined): string {
  if (value === null || value === undefined) return '—';
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) return typeof value === 'string' ? value : JSON.stringify(value);
  return formats[format ?? 'number'].format(number);
}

/** A KPI block: the first row's value of its column, large, with its label. */
export function KpiBlock({
  block,
  result,
  state,
}: {
  block: SharedBlock;
  result: ReportRunResult | undefined;
  state: BlockState;
}) {
  const kpi = block.kpi!;
  const column = result?.columns.findIndex((candidate) => candidate.name === kpi.value) ?? -1;
  const value = column >= 0 ? result?.rows[0]?.[column] : undefined;
  return (
    <BlockFrame title={block.title ?? kpi.label ?? null} state={state} minHeight={56}>
      <Typography component="p" variant="h4" sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}>
        {formatKpi(value, kpi.format)}
      </Typography>
      {block.title !== null && kpi.label ? (
        <Typography variant="body2" color="text.secondary">
          {kpi.label}
        </Typography>
      ) : undefined}
    </BlockFrame>
  );
}
