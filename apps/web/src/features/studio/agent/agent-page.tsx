import type { AgentMessage } from '@dataplatform/contract';
import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, useSyncExternalStore } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { LazyRowConfirmDialog } from '../../../components/lazy-confirm-dialog.js';
import { lazyDialog } from '../../../components/lazy-dialog.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { LoadFailure } from '../../../components/query-state.js';
import { formatDateTime } from '../../../lib/format.js';
import { myTenantsQueryOptions } from '../../../lib/my-tenants.js';
import { QueryProvider } from '../../../lib/query-client.js';
import { getSelectedTenantId, onSelectedTenantChange } from '../../../lib/session.js';
import {
  agentKeys,
  agentStatusQueryOptions,
  conversationQueryOptions,
  conversationsQueryOptions,
  createConversation,
  useDeleteConversation,
} from '../api/agent.js';
import { accessQueryOptions, sourceTablesQueryOptions } from '../api/editor.js';
import { sourcesQueryOptions } from '../api/sources.js';
import type { AddToReportDialogProps } from './add-to-report-dialog.js';
import type { AnswerBlock } from './answer-block.js';
import { AnswerCard } from './answer-card.js';
import { AskProgress } from './ask-progress.js';
import { GuidedBuilder } from './guided-builder.js';
import { QuestionField } from './question-field.js';
import { useAsk } from './use-ask.js';

const AddToReportDialog = lazyDialog<AddToReportDialogProps>(
  () => import('./add-to-report-dialog.js').then((module) => module.default),
  (props) => props.open,
);

type Adding = AddToReportDialogProps['add'];

/** The conversation's exchanges, newest first: each question with its answer. */
function exchanges(messages: readonly AgentMessage[]): { question: AgentMessage | undefined; answer: AgentMessage }[] {
  const pairs: { question: AgentMessage | undefined; answer: AgentMessage }[] = [];
  let question: AgentMessage | undefined;
  for (const message of messages) {
    if (message.role === 'user') question = message;
    else {
      pairs.push({ question, answer: message });
      question = undefined;
    }
  }
  return pairs.reverse();
}

/** The conversation list: reopen one, or delete it. */
function ConversationList({
  current,
  onOpen,
  onDeleted,
}: {
  current: string;
  onOpen: (id: string) => void;
  onDeleted: (id: string) => void;
}) {
  const list = useQuery(conversationsQueryOptions(true));
  const remove = useDeleteConversation();
  const [deleting, setDeleting] = useState<{ id: string; title: string } | undefined>(undefined);
  const headingId = useId();
  return (
    <Box
      component="nav"
      aria-labelledby={headingId}
      sx={{ display: 'flex', flexDirection: 'column', gap: 1, minWidth: 0 }}
    >
      <Typography id={headingId} component="h2" variant="h6">
        Earlier conversations
      </Typography>
      {list.isError ? (
        <LoadFailure onRetry={() => void list.refetch()}>The conversations could not be loaded.</LoadFailure>
      ) : list.isPending ? (
        <LoadingLine sx={{ color: 'text.secondary' }}>Loading conversations...</LoadingLine>
      ) : list.data.data.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          None yet: your questions are kept here.
        </Typography>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          {list.data.data.map((conversation) => (
            <Box component="li" key={conversation.id} sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
              <Button
                onClick={() => onOpen(conversation.id)}
                aria-current={conversation.id === current ? 'true' : undefined}
                color={conversation.id === current ? 'primary' : 'inherit'}
                sx={{
                  flex: 1,
                  minWidth: 0,
                  justifyContent: 'flex-start',
                  textAlign: 'left',
                  textTransform: 'none',
                  display: 'block',
                }}
              >
                <Box
                  component="span"
                  sx={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                >
                  {conversation.title}
                </Box>
                <Box component="span" sx={{ display: 'block', typography: 'caption', color: 'text.secondary' }}>
                  {formatDateTime(conversation.updated_at)}
                </Box>
              </Button>
              <IconButton
                aria-label={`Delete the conversation “${conversation.title}”`}
                onClick={() => setDeleting(conversation)}
                size="small"
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Box>
          ))}
        </Box>
      )}
      <LazyRowConfirmDialog
        row={deleting}
        title="Delete this conversation?"
        confirmLabel="Delete"
        destructive
        loading={remove.isPending}
        onClose={() => setDeleting(undefined)}
        onConfirm={(row) =>
          remove.mutate(row.id, {
            onSuccess: () => {
              setDeleting(undefined);
              onDeleted(row.id);
            },
          })
        }
      >
        “{deleting?.title}” and its answers go for good. Reports the answers were added to keep them.
      </LazyRowConfirmDialog>
    </Box>
  );
}

/** One open conversation: its exchanges, newest first, under the question in progress. */
function ConversationView({
  id,
  onAdd,
}: {
  id: string;
  onAdd: ((message: AgentMessage, block: AnswerBlock) => void) | undefined;
}) {
  const conversation = useQuery(conversationQueryOptions(id));
  if (conversation.isError) {
    return (
      <LoadFailure onRetry={() => void conversation.refetch()}>
        This conversation could not be loaded: it may have been deleted.
      </LoadFailure>
    );
  }
  if (conversation.isPending)
    return <LoadingLine sx={{ color: 'text.secondary' }}>Loading the conversation...</LoadingLine>;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      {exchanges(conversation.data.messages).map(({ question, answer }) => (
        <Box key={answer.id} sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
          {question ? (
            <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
              {question.text}
            </Typography>
          ) : undefined}
          <AnswerCard conversationId={id} message={answer} onAdd={onAdd} />
        </Box>
      ))}
    </Box>
  );
}

/** Asking: the question box, the conversation below it, and the earlier conversations beside. */
function AskView({ onBuild, canWrite }: { onBuild: () => void; canWrite: boolean }) {
  const client = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const conversationId = search.get('c') ?? '';
  const [draft, setDraft] = useState('');
  const [adding, setAdding] = useState<Adding>(undefined);
  const open = (id: string) => setSearch(id === '' ? {} : { c: id });
  const current = useQuery({ ...conversationQueryOptions(conversationId), enabled: conversationId !== '' });
  const followUp = (current.data?.messages.length ?? 0) > 0;
  const { state, ask, cancel, dismiss } = useAsk(async (message) => {
    setDraft('');
    // A read of the conversation started before the answer was saved would be taken for this one
    // (a first fetch in flight is shared, not cancelled, by an invalidation): stop it, read afresh.
    const key = agentKeys.conversation(message.conversation);
    await client.cancelQueries({ queryKey: key });
    await Promise.all([
      // Its own failure is the conversation view's to show.
      client.fetchQuery({ ...conversationQueryOptions(message.conversation), staleTime: 0 }).catch(() => undefined),
      client.invalidateQueries({ queryKey: agentKeys.conversations }),
    ]);
  });
  const send = () => {
    const question = draft.trim();
    void ask(async () => {
      if (conversationId !== '') return conversationId;
      const created = await createConversation(question);
      open(created.id);
      void client.invalidateQueries({ queryKey: agentKeys.conversations });
      return created.id;
    }, question);
  };
  const onAdd = canWrite
    ? (message: AgentMessage, block: AnswerBlock) =>
        setAdding({
          report: message.block!.report,
          addition: block.addition,
          messageId: message.id,
          source: message.block!.source,
          title: message.text,
        })
    : undefined;
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 3,
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) 280px' },
        alignItems: 'start',
      }}
    >
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
        <QuestionField
          value={draft}
          onChange={setDraft}
          onAsk={send}
          busy={state.phase === 'asking'}
          label={followUp ? 'A follow-up question' : 'Your question'}
          example="“median negotiated rate by payer”"
        />
        {conversationId !== '' ? (
          <Box>
            <Button size="small" onClick={() => open('')} disabled={state.phase === 'asking'}>
              New conversation
            </Button>
          </Box>
        ) : undefined}
        <AskProgress state={state} onCancel={cancel} onDismiss={dismiss} onBuild={onBuild} />
        {conversationId !== '' ? <ConversationView id={conversationId} onAdd={onAdd} /> : undefined}
      </Box>
      <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
        <ConversationList
          current={conversationId}
          onOpen={open}
          onDeleted={(id) => {
            if (id === conversationId) open('');
          }}
        />
      </Paper>
      <AddToReportDialog open={adding !== undefined} add={adding} onClose={() => setAdding(undefined)} />
    </Box>
  );
}

/** The builder with its own "Add to report". */
function BuildView({ canWrite }: { canWrite: boolean }) {
  const [adding, setAdding] = useState<Adding>(undefined);
  return (
    <>
      <GuidedBuilder
        onAdd={
          canWrite
            ? (block, compiled) =>
                setAdding({
                  report: compiled.report,
                  addition: block.addition,
                  source: compiled.source,
                  title: block.shown.title ?? 'The block',
                })
            : undefined
        }
      />
      <AddToReportDialog open={adding !== undefined} add={adding} onClose={() => setAdding(undefined)} />
    </>
  );
}

/** No model: the README's words, and the builder straight away. */
function NotConfigured() {
  return (
    <Alert severity="info">
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
  const [mode, setMode] = useState<'ask' | 'build'>('ask');
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
          {status.data.model ? ` with ${status.data.model}` : ''}. Every answer is compiled, checked and previewed by
          the server before you see it.
        </Typography>
      ) : undefined}
      {canAsk ? (
        <Tabs value={mode} onChange={(_, value: 'ask' | 'build') => setMode(value)} aria-label="Ask or build">
          <Tab label="Ask in words" value="ask" id={`${ids.tabs}-ask`} aria-controls={ids.panel} />
          <Tab label="Build by hand" value="build" id={`${ids.tabs}-build`} aria-controls={ids.panel} />
        </Tabs>
      ) : (
        <Typography component="h2" variant="h5">
          Build a block by hand
        </Typography>
      )}
      <Box
        {...(canAsk ? { role: 'tabpanel', id: ids.panel, 'aria-labelledby': `${ids.tabs}-${shown}` } : {})}
        sx={{ minWidth: 0 }}
      >
        {shown === 'ask' ? (
          <AskView onBuild={() => setMode('build')} canWrite={canWrite} />
        ) : (
          <BuildView canWrite={canWrite} />
        )}
      </Box>
    </Box>
  );
}

/** `/Agent`: ask about the tenant's data in words, or build a block by hand. */
export default function AgentPage() {
  return (
    <QueryProvider>
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 }, display: 'flex', flexDirection: 'column', gap: 3 }}>
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
