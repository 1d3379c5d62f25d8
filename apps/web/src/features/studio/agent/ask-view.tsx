import type { AgentMessage } from '@dataplatform/contract';
import DeleteIcon from '@mui/icons-material/Delete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { LazyRowConfirmDialog } from '../../../components/lazy-confirm-dialog.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { LoadFailure } from '../../../components/query-state.js';
import { formatDateTime } from '../../../lib/format.js';
import {
  agentKeys,
  conversationQueryOptions,
  conversationsQueryOptions,
  createConversation,
  useDeleteConversation,
} from '../api/agent.js';
import { AddToReportDialog, type Adding } from './add-to-report.js';
import { Loading } from './loading.js';
import { AskProgress } from './ask-progress.js';
import { QuestionField } from './question-field.js';
import { useAsk } from './use-ask.js';

// A conversation's answers (their blocks and charts) load when one is open.
const ConversationView = lazy(() => import('./conversation-view.js'));

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

/** Asking: the question box, the conversation below it, and the earlier conversations beside. */
export default function AskView({ onBuild, canWrite }: { onBuild: () => void; canWrite: boolean }) {
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
    ? (message: AgentMessage) =>
        setAdding({
          report: message.block!.report,
          params: message.block!.params,
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
        {conversationId !== '' ? (
          <Suspense fallback={<Loading>Loading the conversation...</Loading>}>
            <ConversationView id={conversationId} onAdd={onAdd} />
          </Suspense>
        ) : undefined}
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
