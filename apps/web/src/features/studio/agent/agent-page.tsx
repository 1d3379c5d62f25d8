import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState, useSyncExternalStore } from 'react';
import { Link as RouterLink } from 'react-router';
import { LoadingLine } from '../../../components/loading-line.js';
import { LoadFailure } from '../../../components/query-state.js';
import { FOOTER_BELOW_FOLD } from '../../../lib/footer-below-fold.js';
import { myTenantsQueryOptions } from '../../../lib/my-tenants.js';
import { QueryProvider } from '../../../lib/query-client.js';
import { getSelectedTenantId, onSelectedTenantChange } from '../../../lib/session.js';
import { agentStatusQueryOptions } from '../api/agent.js';
import { accessQueryOptions, sourceTablesQueryOptions } from '../api/editor.js';
import { sourcesQueryOptions } from '../api/sources.js';

import { Loading } from './loading.js';
import type { AgentMode } from './mode-tabs.js';

// Asking and building load as they show: the page's first load carries neither.
const AskView = lazy(() => import('./ask-view.js'));
const BuildView = lazy(() => import('./build-view.js'));
const ModeTabs = lazy(() => import('./mode-tabs.js'));

/** A tab strip's height (MUI's Tabs), held while the tabs' code loads. */
const TABS_HEIGHT_PX = 48;

/** No model: the README's words, and the builder straight away. */
function NotConfigured() {
  return (
    // Long settings wrap on a phone rather than scroll the message sideways.
    <Alert severity="info" sx={{ '& .MuiAlert-message': { minWidth: 0, overflowWrap: 'anywhere' } }}>
      <AlertTitle>No model is configured, so questions in words are off</AlertTitle>
      The builder below makes the same blocks by hand. To ask in words, point the server at any OpenAI-compatible model
      and restart it, for example Ollama on this machine:
      <Box
        component="pre"
        sx={{
          my: 1,
          p: 1,
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          fontSize: '0.8125rem',
          bgcolor: 'action.hover',
          borderRadius: 1,
        }}
      >
        AGENT_BASE_URL=http://127.0.0.1:11434/v1 AGENT_MODEL=llama3.1 npm start
      </Box>
      or OpenAI with <code>AGENT_BASE_URL=https://api.openai.com/v1</code>, <code>AGENT_MODEL</code> and{' '}
      <code>AGENT_API_KEY</code>. The README’s section “The agent” says what is sent to the model.
    </Alert>
  );
}

/** What the page shows once the agent's status and the caller's tenants are known. */
function AgentBody() {
  const status = useQuery(agentStatusQueryOptions());
  const tenants = useQuery(myTenantsQueryOptions());
  const access = useQuery(accessQueryOptions());
  const sources = useQuery(sourcesQueryOptions());
  const hasExtracts = sources.data?.data.some((source) => source.kind === 'extract') === true;
  const extracts = useQuery({ ...sourceTablesQueryOptions('extract'), enabled: hasExtracts });
  const tenantId = useSyncExternalStore(onSelectedTenantChange, getSelectedTenantId, () => '');
  const [mode, setMode] = useState<AgentMode>('ask');
  const ids = { tabs: useId(), panel: useId() };

  if (status.isError) {
    return <LoadFailure onRetry={() => void status.refetch()}>The agent’s status could not be loaded.</LoadFailure>;
  }
  if (status.isPending || tenants.isPending) {
    return <LoadingLine sx={{ py: 4, color: 'text.secondary' }}>Loading the agent...</LoadingLine>;
  }
  if (!status.data.allowed) {
    return (
      <Alert severity="info">
        <AlertTitle>The agent is not part of your access yet</AlertTitle>
        Asking and building need the permission <code>agent:use</code>: ask an administrator to give you a role that
        holds it. Meanwhile, the{' '}
        <Link component={RouterLink} to="/studio/reports">
          reports
        </Link>{' '}
        are yours to read.
      </Alert>
    );
  }
  const tenant = (tenants.data?.data ?? []).find((candidate) => candidate.id === tenantId);
  const canWrite = access.data?.reports_write === true && tenant !== undefined;
  // An empty tenant: no database of its own, and no file uploaded yet.
  const onlyDemo =
    sources.isSuccess &&
    !sources.data.data.some((source) => source.kind === 'tenant') &&
    (!hasExtracts || extracts.data?.data.length === 0);
  const canAsk = status.data.configured && tenant !== undefined;
  const shown = canAsk ? mode : 'build';

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {!status.data.configured ? <NotConfigured /> : undefined}
      {status.data.configured && !tenant ? (
        <Alert severity="info">
          {(tenants.data?.data.length ?? 0) > 0
            ? 'Questions are asked in a tenant: choose one with the tenant switcher in the top bar. Meanwhile, the builder below works on the demo data.'
            : 'Questions are asked in a tenant, and you are in none yet: ask an administrator to add you to one. Meanwhile, the builder below works on the demo data.'}
        </Alert>
      ) : undefined}
      {tenant && onlyDemo ? (
        <Alert severity="info">
          {tenant.name} has no data of its own yet, so answers come from the demo data.{' '}
          <Link component={RouterLink} to="/studio/sources">
            Add a file or a database under Sources
          </Link>{' '}
          to ask about yours.
        </Alert>
      ) : undefined}
      {tenant ? (
        <Typography variant="body2" color="text.secondary">
          Asking in <strong>{tenant.name}</strong>
          {status.data.model ? ` with the model ${status.data.model}` : ''}. Every answer is compiled, checked and
          previewed by the server before you see it.
        </Typography>
      ) : undefined}
      {canAsk ? (
        <Suspense fallback={<Box sx={{ height: TABS_HEIGHT_PX }} />}>
          <ModeTabs mode={mode} onChange={setMode} ids={ids} />
        </Suspense>
      ) : (
        <Typography component="h2" variant="h5">
          Build a block by hand
        </Typography>
      )}
      <Box
        {...(canAsk ? { role: 'tabpanel', id: ids.panel, 'aria-labelledby': `${ids.tabs}-${shown}` } : {})}
        sx={{ minWidth: 0 }}
      >
        <Suspense fallback={<Loading>{shown === 'ask' ? 'Loading...' : 'Loading the builder...'}</Loading>}>
          {shown === 'ask' ? (
            <AskView onBuild={() => setMode('build')} canWrite={canWrite} />
          ) : (
            <BuildView canWrite={canWrite} />
          )}
        </Suspense>
      </Box>
    </Box>
  );
}

/** `/Agent`: ask about the tenant's data in words, or build a block by hand. */
export default function AgentPage() {
  return (
    <QueryProvider>
      {/* The footer waits below the fold: the page grows as its parts load, and nothing in view moves. */}
      <Container
        maxWidth="lg"
        sx={{ py: { xs: 3, md: 5 }, display: 'flex', flexDirection: 'column', gap: 3 }}
        {...{ [FOOTER_BELOW_FOLD]: '' }}
      >
        <Box>
          <Typography component="h1" variant="h3" sx={{ fontWeight: 700 }}>
            Agent
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1, maxWidth: '70ch' }}>
            Ask about your data in plain words and get a chart, a figure or a table, with the SQL behind it. Add what
            you like to a report.
          </Typography>
        </Box>
        <AgentBody />
      </Container>
    </QueryProvider>
  );
}
