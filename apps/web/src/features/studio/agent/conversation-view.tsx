import type { AgentMessage } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { LoadingLine } from '../../../components/loading-line.js';
import { LoadFailure } from '../../../components/query-state.js';
import { conversationQueryOptions } from '../api/agent.js';
import { AnswerCard } from './answer-card.js';

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

/** One open conversation: its exchanges, newest first, under the question in progress. */
export default function ConversationView({
  id,
  onAdd,
}: {
  id: string;
  onAdd: ((message: AgentMessage) => void) | undefined;
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
