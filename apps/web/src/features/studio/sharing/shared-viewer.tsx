import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import type { ReportParamPublic, SharedReport } from '@dataplatform/contract';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { LoadingLine } from '../../../components/loading-line.js';
import { ApiError, errorText } from '../../../lib/api-error.js';
import { ParamBar } from '../components/param-bar.js';
import { ReportBlocks, searchWithParams, type BlockRunner } from '../components/report-viewer.js';
import {
  embeddedChartSource,
  embeddedReportQueryOptions,
  embeddedRunQueryOptions,
  sharedChartSource,
  sharedReportQueryOptions,
  sharedRunQueryOptions,
} from '../api/sharing.js';
import { paramValues, type ParamValues } from '../report-view.js';

type SharedParam = SharedReport['params'][number];

/** A shared report's parameter as the bar takes it: its select values come from the definition only. */
const asBarParam = (param: SharedParam): ReportParamPublic => ({ ...param, options_sql: null });

/** What went wrong opening a shared or embedded report, in words for someone without an account. */
function failureMessage(error: unknown, how: 'link' | 'embed'): { title: string; detail: string } {
  if (error instanceof ApiError) {
    if (error.status === 410) return { title: 'This link no longer works', detail: errorText(error) };
    if (error.status === 404) {
      return {
        title: 'No report here',
        detail:
          how === 'link'
            ? 'Check that the address is the whole link you were given, or ask whoever shared it for a new one.'
            : 'The report this frame names does not exist (any more).',
      };
    }
    if (error.status === 403) return { title: 'This report cannot be shown here', detail: errorText(error) };
    if (error.status === 429) {
      return { title: 'Too many requests', detail: 'This report is being opened very often: try again in a minute.' };
    }
  }
  return { title: 'The report could not be loaded', detail: `${errorText(error)} Reload the page to try again.` };
}

/**
 * A report shown to someone without an account (issue 58): its title, its parameters (those the link
 * or token fixes shown, not changeable) and its blocks, nothing else of the product.
 */
function SharedReportBody({
  query,
  runner,
  how,
}: {
  query: UseQueryResult<SharedReport>;
  runner: BlockRunner;
  how: 'link' | 'embed';
}) {
  const [search, setSearch] = useSearchParams();
  const open = useMemo(() => (query.data?.params ?? []).filter((param) => !param.locked).map(asBarParam), [query.data]);
  const values = useMemo(() => {
    const fixed: ParamValues = {};
    for (const param of query.data?.params ?? []) {
      if (param.locked) fixed[param.name] = param.default === null ? '' : String(param.default);
    }
    return { ...paramValues(open, search), ...fixed };
  }, [query.data, open, search]);

  if (query.isPending) return <LoadingLine sx={{ py: 6, color: 'text.secondary' }}>Loading the report...</LoadingLine>;
  if (query.isError) {
    const { title, detail } = failureMessage(query.error, how);
    return (
      <Alert severity="warning" sx={{ my: 4 }}>
        <AlertTitle component="h1">{title}</AlertTitle>
        {detail}
      </Alert>
    );
  }
  const report = query.data;
  const locked = report.params.filter((param) => param.locked);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <Box component="header" sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Typography component="h1" variant="h4" sx={{ fontWeight: 700 }}>
          {report.title}
        </Typography>
        {report.description ? (
          <Typography color="text.secondary" sx={{ maxWidth: '75ch' }}>
            {report.description}
          </Typography>
        ) : undefined}
        {locked.length > 0 || report.expires_at ? (
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }} aria-label="Fixed values">
            {locked.map((param) => (
              <Chip key={param.name} size="small" label={`${param.label}: ${values[param.name] || '(empty)'}`} />
            ))}
            {report.expires_at ? (
              <Chip
                size="small"
                variant="outlined"
                label={`Link works until ${new Date(report.expires_at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`}
              />
            ) : undefined}
          </Box>
        ) : undefined}
      </Box>
      {open.length > 0 ? (
        <ParamBar
          params={open}
          values={values}
          onApply={(next) =>
            setSearch((current) => searchWithParams(current, open, next), { preventScrollReset: true })
          }
        />
      ) : undefined}
      <ReportBlocks blocks={report.blocks} params={values} runner={runner} />
    </Box>
  );
}

/** `/s/{token}`: the report a share link shows. */
export function SharedReportPage({ token }: { token: string }) {
  const query = useQuery(sharedReportQueryOptions(token));
  const runner = useMemo<BlockRunner>(
    () => ({
      useRun: (request, enabled) => useQuery({ ...sharedRunQueryOptions(token, request), enabled }),
      chartSource: (block, params) => sharedChartSource(token, block.id, params, `shared-${block.id}`),
    }),
    [token],
  );
  return (
    <Box component="main" sx={{ minHeight: '100vh', bgcolor: 'background.default', color: 'text.primary' }}>
      <Container maxWidth="lg" sx={{ py: { xs: 2, md: 4 } }}>
        <SharedReportBody query={query} runner={runner} how="link" />
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 4 }}>
          Shared with you from Data Platform Studio. Read only.
        </Typography>
      </Container>
    </Box>
  );
}

/** `/embed/{report_id}?token=…`: a report framed by another site, its rows locked by the token. */
export function EmbeddedReportPage({ reportId, token }: { reportId: string; token: string }) {
  const query = useQuery({ ...embeddedReportQueryOptions(reportId, token), enabled: token !== '' });
  const runner = useMemo<BlockRunner>(
    () => ({
      useRun: (request, enabled) => useQuery({ ...embeddedRunQueryOptions(reportId, token, request), enabled }),
      chartSource: (block, params) => embeddedChartSource(reportId, token, block.id, params, `report-${block.id}`),
    }),
    [reportId, token],
  );
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', bgcolor: 'background.default', color: 'text.primary', p: { xs: 1.5, sm: 2 } }}
    >
      {token === '' ? (
        <Alert severity="warning">
          <AlertTitle component="h1">This report cannot be shown here</AlertTitle>
          The frame’s address carries no token: the site that shows it must sign one for you.
        </Alert>
      ) : (
        <SharedReportBody query={query} runner={runner} how="embed" />
      )}
    </Box>
  );
}
