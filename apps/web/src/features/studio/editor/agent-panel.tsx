import { addBlockToReport, type AgentMessage } from '@dataplatform/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { LoadingLine } from '../../../components/loading-line.js';
import { LoadFailure } from '../../../components/query-state.js';
import { agentStatusQueryOptions, createConversation } from '../api/agent.js';
import { answerBlockOf } from '../agent/answer-block.js';
import { AnswerSteps, planWords } from '../agent/answer-card.js';
import { AskProgress } from '../agent/ask-progress.js';
import { Folded } from '../agent/drawn-block.js';
import { QuestionField } from '../agent/question-field.js';
import { useAsk } from '../agent/use-ask.js';
import { TextDiff } from './text-diff.js';

/** The proposal of an answer: the editor's text with the answer's block added, or why it cannot be. */
function proposalOf(text: string, message: AgentMessage): { text: string } | { problem: string } {
  if (!message.block) return { problem: '' };
  try {
    const { addition } = answerBlockOf(message.block.report, message.block.params);
    return { text: addBlockToReport(text, addition) };
  } catch {
    return { problem: 'The text has problems: fix them in the editor, and the proposal applies to it again.' };
  }
}

/**
 * The editor's "Ask the agent" (issue 57): a question about the open report, answered as a diff of
 * its YAML with the steps the agent took (the plan, the SQL, each repair and why). Accept puts the
 * new text in the editor, unsaved; Drop forgets it.
 */
export function AgentPanel({
  text,
  report,
  onAccept,
}: {
  text: string;
  /** The saved report the question is about (its saved text goes to the model). */
  report: { id: string; title: string } | undefined;
  onAccept: (text: string, messageId: string) => void;
}) {
  const status = useQuery(agentStatusQueryOptions());
  const [draft, setDraft] = useState('');
  const [answer, setAnswer] = useState<AgentMessage | undefined>(undefined);
  const conversation = useRef<string | undefined>(undefined);
  const { state, ask, cancel, dismiss } = useAsk((message) => {
    setAnswer(message);
    setDraft('');
  });
  const proposal = useMemo(() => (answer ? proposalOf(text, answer) : undefined), [answer, text]);

  if (status.isError) {
    return <LoadFailure onRetry={() => void status.refetch()}>The agent’s status could not be loaded.</LoadFailure>;
  }
  if (status.isPending) return <LoadingLine sx={{ color: 'text.secondary' }}>Loading the agent...</LoadingLine>;
  if (!status.data.allowed) {
    return (
      <Typography variant="body2" color="text.secondary">
        Asking the agent needs the permission agent:use: ask an administrator for a role that holds it.
      </Typography>
    );
  }
  if (!status.data.configured) {
    return (
      <Alert severity="info">
        No model is configured: set AGENT_BASE_URL (and AGENT_MODEL) to an OpenAI-compatible server and restart. Until
        then,{' '}
        <Link component={RouterLink} to="/Agent">
          the builder on the Agent page
        </Link>{' '}
        makes blocks by hand and adds them to this report.
      </Alert>
    );
  }
  if (!report) {
    return (
      <Typography variant="body2" color="text.secondary">
        Create the report first: the agent reads its saved text and proposes changes to it.
      </Typography>
    );
  }

  const send = () => {
    const question = draft.trim();
    setAnswer(undefined);
    void ask(
      async () => {
        conversation.current ??= (await createConversation(`About “${report.title}”`)).id;
        return conversation.current;
      },
      question,
      report.id,
    );
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <QuestionField
        value={draft}
        onChange={setDraft}
        onAsk={send}
        busy={state.phase === 'asking'}
        label="Ask about this report"
        example="“add the median rate by state”"
      />
      <AskProgress state={state} onCancel={cancel} onDismiss={dismiss} />
      {answer && !answer.block ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{answer.text}</Typography>
        </Paper>
      ) : undefined}
      {answer?.block && proposal ? (
        <Box
          component="section"
          aria-label="The agent’s proposal"
          sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}
        >
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            Proposal: {answer.text}
          </Typography>
          <Box
            component="ol"
            aria-label="The steps"
            sx={{ m: 0, pl: 3, typography: 'body2', display: 'flex', flexDirection: 'column', gap: 0.5 }}
          >
            <li>
              {answer.plan
                ? `Plan: ${planWords(answer.plan)}.`
                : 'The model wrote SQL of its own; it passed the guard.'}
            </li>
            <li>
              Compiled, checked and previewed on the server
              {answer.repairs.length > 0 ? ' after the repairs below.' : ' at the first attempt.'}
            </li>
          </Box>
          <AnswerSteps message={answer} />
          {answer.sql ? <Folded summary="SQL">{answer.sql}</Folded> : undefined}
          {'text' in proposal ? (
            <TextDiff before={text} after={proposal.text} label="The report’s text with the proposal" />
          ) : (
            <Alert severity="warning">{proposal.problem}</Alert>
          )}
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button
              variant="contained"
              disabled={!('text' in proposal)}
              onClick={() => {
                if ('text' in proposal) onAccept(proposal.text, answer.id);
                setAnswer(undefined);
              }}
            >
              Accept into the editor
            </Button>
            <Button variant="outlined" color="inherit" onClick={() => setAnswer(undefined)}>
              Drop
            </Button>
          </Box>
          <Typography variant="body2" color="text.secondary">
            Accepting changes the text only: nothing is saved until you save.
          </Typography>
        </Box>
      ) : undefined}
    </Box>
  );
}
