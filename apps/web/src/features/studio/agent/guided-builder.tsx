import {
  AGENT_AGGREGATES,
  AGENT_FILTER_OPS,
  AGENT_GRAINS,
  AGENT_PLAN_PARTS_MAX,
  type AgentBlock,
  type AgentChart,
  type AgentCompile,
  type AgentCompiled,
  type AgentPlanBody,
  columnClass,
} from '@dataplatform/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import Link from '@mui/material/Link';
import OutlinedInput from '@mui/material/OutlinedInput';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { LoadingLine } from '../../../components/loading-line.js';
import { LoadFailure } from '../../../components/query-state.js';
import { errorText } from '../../../lib/api-error.js';
import { useSettledValue } from '../../../lib/use-settled-value.js';
import { compileQueryOptions } from '../api/agent.js';
import { sourceTablesQueryOptions } from '../api/editor.js';
import { sourcesQueryOptions } from '../api/sources.js';
import { chartsFor, compileRequest, defaultTitle, previewBlock, type BuilderPicks } from './builder-plan.js';
import { DrawnBlock, Folded, previewResult } from './drawn-block.js';
import { NativeChoice } from './native-choice.js';

/** How long the picks must stay put before the preview is compiled again. */
const COMPILE_DELAY_MS = 350;

const AGG_WORDS: Record<(typeof AGENT_AGGREGATES)[number], string> = {
  count: 'Count',
  count_distinct: 'Count distinct',
  sum: 'Sum',
  avg: 'Average',
  min: 'Minimum',
  max: 'Maximum',
  median: 'Median',
};
const OP_WORDS: Record<(typeof AGENT_FILTER_OPS)[number], string> = {
  '=': 'is',
  '!=': 'is not',
  '<': 'is less than',
  '<=': 'is at most',
  '>': 'is more than',
  '>=': 'is at least',
  in: 'is one of (a, b)',
  not_in: 'is none of (a, b)',
  between: 'is between (a, b)',
  contains: 'contains',
  is_null: 'is empty',
  not_null: 'is not empty',
};
const CHART_WORDS: Record<AgentChart, string> = {
  kpi: 'One figure (KPI)',
  bar: 'Bars',
  line: 'Line',
  area: 'Area',
  point: 'Points',
  table: 'Table',
};

const EMPTY: BuilderPicks = {
  source: '',
  table: '',
  measures: [{ agg: 'count', column: '' }],
  dimensions: [],
  filters: [],
  chart: 'kpi',
  title: '',
};

/** The key of no request (the query is disabled until the picks are a plan). */
const PLACEHOLDER = {
  source: 'demo',
  plan: { title: '-', table: '-', measures: [], dimensions: [], filters: [], sort: [], limit: null, chart: 'table' },
} satisfies AgentCompile;

function Step({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  return (
    <Box
      component="fieldset"
      sx={{ border: 0, m: 0, p: 0, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      <Typography component="legend" variant="subtitle2" sx={{ fontWeight: 700, p: 0, mb: 1 }}>
        {number}. {title}
      </Typography>
      {children}
    </Box>
  );
}

function Row({ children }: { children: ReactNode }) {
  return <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>{children}</Box>;
}

/** The button that ends a measure's, group's or filter's row and takes that part out of the plan. */
function RemoveButton({ onClick }: { onClick: () => void }) {
  return (
    <Button size="small" color="inherit" onClick={onClick}>
      Remove
    </Button>
  );
}

/** The button under a step's rows that adds one more part, while the plan may hold more and the table has columns. */
function AddButton({
  parts,
  hasColumns,
  onClick,
  children,
}: {
  parts: number;
  hasColumns: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Box>
      <Button size="small" disabled={parts >= AGENT_PLAN_PARTS_MAX || !hasColumns} onClick={onClick}>
        {children}
      </Button>
    </Box>
  );
}

function TextInput({
  label,
  value,
  onChange,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <FormControl size="small" variant="outlined" sx={{ minWidth: 140, flex: '1 1 160px', maxWidth: 360 }}>
      <InputLabel htmlFor={id} shrink>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        notched
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
      />
    </FormControl>
  );
}

/** The compiled preview: the block drawn from the compile's rows, its SQL and YAML folded. */
function BuiltPreview({
  plan,
  compiled,
  onAdd,
}: {
  plan: AgentPlanBody;
  compiled: AgentCompiled;
  onAdd?: ((compiled: AgentBlock, title: string) => void) | undefined;
}) {
  const block = useMemo(() => previewBlock(compiled), [compiled]);
  const result = useMemo(() => previewResult(compiled.preview), [compiled.preview]);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <DrawnBlock
        block={block}
        result={result}
        state={compiled.preview.rows.length === 0 ? { status: 'empty' } : { status: 'ready' }}
      />
      {onAdd ? (
        <Box>
          <Button size="small" variant="outlined" onClick={() => onAdd(compiled.block, plan.title)}>
            Add to report
          </Button>
        </Box>
      ) : undefined}
      <Folded summary="SQL">{compiled.sql}</Folded>
      <Folded summary="YAML">{compiled.block.yaml}</Folded>
    </Box>
  );
}

/**
 * The guided builder (no model): source → table → measures → group by (a grain for times) →
 * filters → chart, every choice from the tenant's real sources and columns; the preview is the
 * server's compile of the same plan a model would pick (`POST /agent/plan/compile`).
 */
export function GuidedBuilder({ onAdd }: { onAdd?: ((compiled: AgentBlock, title: string) => void) | undefined }) {
  const [picks, setPicks] = useState<BuilderPicks>(EMPTY);
  const sources = useQuery(sourcesQueryOptions());
  const source = picks.source || sources.data?.data[0]?.id || '';
  const tables = useQuery({ ...sourceTablesQueryOptions(source), enabled: source !== '' });
  const tableList = tables.data?.data ?? [];
  const table = tableList.find((candidate) => candidate.name === picks.table) ?? tableList[0];
  const columns = useMemo(() => table?.columns ?? [], [table]);
  const types = useMemo(() => new Map(columns.map((column) => [column.name, column.type])), [columns]);
  const current: BuilderPicks = {
    ...picks,
    source,
    table: table?.name ?? '',
  };
  const request = compileRequest(current, types);
  const settled = useSettledValue(request ? JSON.stringify(request) : '', COMPILE_DELAY_MS);
  const sent = useMemo(() => (settled === '' ? PLACEHOLDER : (JSON.parse(settled) as AgentCompile)), [settled]);
  const compile = useQuery({ ...compileQueryOptions(sent), enabled: settled !== '' });
  const update = (change: Partial<BuilderPicks>) => setPicks({ ...current, ...change });
  const charts = chartsFor(current);
  const chart = charts.includes(current.chart) ? current.chart : charts[0]!;
  const columnOptions = columns.map((column) => ({
    value: column.name,
    label: `${column.name} (${column.type.toLowerCase()})`,
  }));
  const numeric = columns.filter((column) => columnClass(column.type) === 'number');

  if (sources.isError)
    return <LoadFailure onRetry={() => void sources.refetch()}>The sources could not be loaded.</LoadFailure>;
  if (sources.isPending) return <LoadingLine sx={{ color: 'text.secondary' }}>Loading the sources...</LoadingLine>;

  return (
    <Box
      sx={{
        display: 'grid',
        gap: 3,
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 5fr) minmax(0, 6fr)' },
        alignItems: 'start',
      }}
    >
      <Box
        component="form"
        aria-label="Build a block"
        onSubmit={(event) => event.preventDefault()}
        sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
      >
        <Step number={1} title="Source and table">
          <Row>
            <NativeChoice
              label="Source"
              value={source}
              onChange={(value) => setPicks({ ...EMPTY, source: value })}
              options={(sources.data?.data ?? []).map((candidate) => ({ value: candidate.id, label: candidate.name }))}
            />
            {tables.isError ? (
              <Typography variant="body2" color="error">
                Its tables could not be read: {errorText(tables.error)}
              </Typography>
            ) : tables.isSuccess && tableList.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                No tables here yet: upload a file under{' '}
                <Link component={RouterLink} to="/studio/sources">
                  Sources
                </Link>
                , or pick another source.
              </Typography>
            ) : (
              <NativeChoice
                label="Table"
                value={table?.name ?? ''}
                disabled={tableList.length === 0}
                onChange={(value) => setPicks({ ...EMPTY, source, table: value })}
                options={tableList.map((candidate) => ({ value: candidate.name, label: candidate.name }))}
                minWidth={180}
              />
            )}
          </Row>
        </Step>

        <Step number={2} title="Measures">
          {current.measures.map((measure, index) => (
            <Row key={index}>
              <NativeChoice
                label={`Measure ${index + 1}`}
                value={measure.agg}
                onChange={(agg) => {
                  const next = [...current.measures];
                  const column =
                    agg === 'count' ? measure.column : measure.column || (numeric[0]?.name ?? columns[0]?.name ?? '');
                  next[index] = { agg: agg as typeof measure.agg, column };
                  update({ measures: next });
                }}
                options={AGENT_AGGREGATES.map((agg) => ({ value: agg, label: AGG_WORDS[agg] }))}
              />
              <NativeChoice
                label="of"
                value={measure.column}
                onChange={(column) => {
                  const next = [...current.measures];
                  next[index] = { agg: column === '' ? 'count' : measure.agg, column };
                  update({ measures: next });
                }}
                options={[...(measure.agg === 'count' ? [{ value: '', label: 'every row' }] : []), ...columnOptions]}
                minWidth={180}
              />
              <RemoveButton onClick={() => update({ measures: current.measures.filter((_, at) => at !== index) })} />
            </Row>
          ))}
          <AddButton
            parts={current.measures.length}
            hasColumns={columns.length > 0}
            onClick={() =>
              update({
                measures: [
                  ...current.measures,
                  { agg: numeric.length > 0 ? 'sum' : 'count', column: numeric[0]?.name ?? '' },
                ],
              })
            }
          >
            Add a measure
          </AddButton>
        </Step>

        <Step number={3} title="Group by">
          {current.dimensions.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              Nothing: the measures are over the whole table.
            </Typography>
          ) : undefined}
          {current.dimensions.map((dimension, index) => {
            const isTime = columnClass(types.get(dimension.column) ?? '') === 'time';
            return (
              <Row key={index}>
                <NativeChoice
                  label={`Group ${index + 1}`}
                  value={dimension.column}
                  onChange={(column) => {
                    const next = [...current.dimensions];
                    next[index] = { column, grain: columnClass(types.get(column) ?? '') === 'time' ? 'month' : '' };
                    update({ dimensions: next });
                  }}
                  options={columnOptions}
                  minWidth={180}
                />
                {isTime ? (
                  <NativeChoice
                    label="Time grain"
                    value={dimension.grain}
                    onChange={(grain) => {
                      const next = [...current.dimensions];
                      next[index] = { column: dimension.column, grain: grain as typeof dimension.grain };
                      update({ dimensions: next });
                    }}
                    options={[
                      { value: '', label: 'the value itself' },
                      ...AGENT_GRAINS.map((grain) => ({ value: grain, label: grain })),
                    ]}
                  />
                ) : undefined}
                <RemoveButton
                  onClick={() => update({ dimensions: current.dimensions.filter((_, at) => at !== index) })}
                />
              </Row>
            );
          })}
          <AddButton
            parts={current.dimensions.length}
            hasColumns={columns.length > 0}
            onClick={() => {
              const first = columns.find((column) => columnClass(column.type) === 'text') ?? columns[0]!;
              update({
                dimensions: [
                  ...current.dimensions,
                  { column: first.name, grain: columnClass(first.type) === 'time' ? 'month' : '' },
                ],
                chart:
                  current.dimensions.length === 0 && (chart === 'kpi' || chart === 'table') ? 'bar' : current.chart,
              });
            }}
          >
            Add a group
          </AddButton>
        </Step>

        <Step number={4} title="Filters">
          {current.filters.map((filter, index) => (
            <Row key={index}>
              <NativeChoice
                label={`Filter ${index + 1}`}
                value={filter.column}
                onChange={(column) => {
                  const next = [...current.filters];
                  next[index] = { ...filter, column };
                  update({ filters: next });
                }}
                options={columnOptions}
                minWidth={160}
              />
              <NativeChoice
                label="that"
                value={filter.op}
                onChange={(op) => {
                  const next = [...current.filters];
                  next[index] = { ...filter, op: op as typeof filter.op };
                  update({ filters: next });
                }}
                options={AGENT_FILTER_OPS.map((op) => ({ value: op, label: OP_WORDS[op] }))}
              />
              {filter.op === 'is_null' || filter.op === 'not_null' ? undefined : (
                <TextInput
                  label="Value"
                  value={filter.value}
                  placeholder={filter.op === 'between' ? 'low, high' : filter.op.endsWith('in') ? 'a, b, c' : ''}
                  onChange={(value) => {
                    const next = [...current.filters];
                    next[index] = { ...filter, value };
                    update({ filters: next });
                  }}
                />
              )}
              <RemoveButton onClick={() => update({ filters: current.filters.filter((_, at) => at !== index) })} />
            </Row>
          ))}
          <AddButton
            parts={current.filters.length}
            hasColumns={columns.length > 0}
            onClick={() => update({ filters: [...current.filters, { column: columns[0]!.name, op: '=', value: '' }] })}
          >
            Add a filter
          </AddButton>
        </Step>

        <Step number={5} title="Chart and title">
          <Row>
            <NativeChoice
              label="Draw as"
              value={chart}
              onChange={(value) => update({ chart: value as AgentChart })}
              options={charts.map((kind) => ({ value: kind, label: CHART_WORDS[kind] }))}
            />
            <TextInput
              label="Title"
              value={picks.title}
              placeholder={defaultTitle(current)}
              onChange={(title) => update({ title })}
            />
          </Row>
        </Step>
      </Box>

      <Paper
        variant="outlined"
        component="section"
        aria-label="Preview"
        sx={{ p: 2, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 1.5 }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, minHeight: 32 }}>
          <Typography component="h2" variant="h6">
            Preview
          </Typography>
          {/* Beside the heading, not above the block: the block never moves as a compile starts and ends. */}
          {request && compile.data && (compile.isFetching || settled !== JSON.stringify(request)) ? (
            <LoadingLine sx={{ color: 'text.secondary', typography: 'body2' }}>Updating...</LoadingLine>
          ) : undefined}
        </Box>
        {!request ? (
          <Typography variant="body2" color="text.secondary">
            Pick a table and a measure or a group: the preview shows here.
          </Typography>
        ) : compile.isError ? (
          <Alert role="none" severity="warning">
            <span role="alert">This plan does not compile: {errorText(compile.error)}</span> Change a pick above.
          </Alert>
        ) : compile.data ? (
          <BuiltPreview plan={sent.plan} compiled={compile.data} onAdd={onAdd} />
        ) : (
          <LoadingLine sx={{ color: 'text.secondary' }}>Compiling and running the preview...</LoadingLine>
        )}
      </Paper>
    </Box>
  );
}
