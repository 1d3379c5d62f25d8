import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { LoadingLine } from '../../../components/loading-line.js';
import { ApiError, errorText } from '../../../lib/api-error.js';
import { CODE_TEXT_SX } from './code-text.js';
import type { AskState } from './use-ask.js';

const STAGE_WORDS = {
  asking: 'Thinking: the model is choosing tables and columns...',
  checking: 'Checking the answer: compiling it and running a preview...',
  repairing: 'The first answer did not pass the checks: asking the model to fix it...',
} as const;

/** When a spent budget comes back, from Retry-After: "at 00:00 UTC, in about 5 hours". */
export function comesBackText(seconds: number | undefined, now = Date.now()): string {
  if (seconds === undefined) return 'at midnight UTC';
  const at = new Date(now + seconds * 1000);
  const time = `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')} UTC`;
  const hours = Math.round(seconds / 3600);
  const minutes = Math.max(1, Math.round(seconds / 60));
  return `at ${time}, in about ${hours >= 1 ? `${hours} hour${hours === 1 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`}`;
}

/** A refusal's attempts, one per line: the server lists them as "attempt 1: … attempt 2: …". */
function attemptsOf(detail: string): { summary: string; attempts: string[] } {
  const at = detail.indexOf(': attempt ');
  if (at === -1) return { summary: detail, attempts: [] };
  const attempts = detail
    .slice(at + 2)
    .split(/\s(?=attempt \d+:)/)
    .map((attempt) => attempt.trim())
    .filter((attempt) => attempt !== '');
  return { summary: detail.slice(0, at), attempts };
}

/**
 * A failure's alert: its words take the width, and its "Build it by hand" goes below them where the
 * two do not fit side by side (a phone), rather than squeezing the words into a narrow column.
 */
const FAILURE_SX = {
  flexWrap: 'wrap',
  '& .MuiAlert-message': { flex: '1 1 14rem' },
  '& .MuiAlert-action': { ml: 'auto', pl: 1 },
} as const;

/** A failed question in words, with what to do next. */
function AskFailure({ error, onBuild }: { error: unknown; onBuild?: (() => void) | undefined }) {
  const code = error instanceof ApiError ? error.code : undefined;
  const detail = errorText(error);
  const build = onBuild ? (
    <Button color="inherit" size="small" onClick={onBuild} sx={{ whiteSpace: 'nowrap' }}>
      Build it by hand
    </Button>
  ) : undefined;
  if (code === 'agent_refused') {
    const { summary, attempts } = attemptsOf(detail);
    return (
      <Alert role="none" severity="warning" action={build} sx={FAILURE_SX}>
        <AlertTitle>No checked answer</AlertTitle>
        <span role="alert">{summary}.</span>
        {attempts.length > 0 ? (
          <Box component="ol" aria-label="What was tried" sx={{ my: 1, pl: 3 }}>
            {attempts.map((attempt) => (
              <li key={attempt}>{attempt.replace(/^attempt \d+:\s*/, '')}</li>
            ))}
          </Box>
        ) : undefined}
        Nothing that failed a check was run. Say it another way (name the table or the column), or build it by hand.
      </Alert>
    );
  }
  if (code === 'agent_budget_exhausted') {
    const seconds = error instanceof ApiError ? error.retryAfterSeconds : undefined;
    return (
      <Alert role="none" severity="info" action={build} sx={FAILURE_SX}>
        <AlertTitle>Today’s agent budget is spent</AlertTitle>
        <span role="alert">
          This tenant has used all the tokens it may use today. Questions work again {comesBackText(seconds)}.
        </span>{' '}
        Until then, the builder answers without a model.
      </Alert>
    );
  }
  if (code === 'agent_unavailable') {
    return (
      <Alert role="none" severity="error" action={build} sx={FAILURE_SX}>
        <AlertTitle>The model did not answer</AlertTitle>
        <span role="alert">{detail}</span> Your question is still in the box.
      </Alert>
    );
  }
  if (code === 'agent_not_configured') {
    return (
      <Alert role="none" severity="info" action={build} sx={FAILURE_SX}>
        <AlertTitle>No model is configured</AlertTitle>
        <span role="alert">{detail}</span>
      </Alert>
    );
  }
  if (error instanceof ApiError && error.status === 429) {
    return (
      <Alert role="none" severity="warning" sx={FAILURE_SX}>
        <span role="alert">Too many questions in a short time: wait a minute, then ask again.</span>
      </Alert>
    );
  }
  return (
    <Alert role="none" severity="error" action={build} sx={FAILURE_SX}>
      <span role="alert">The question could not be answered: {detail}</span> Try again.
    </Alert>
  );
}

/**
 * What a question is doing, or what became of it: thinking and checking (with the model's text as
 * it streams, and Cancel), cancelled, or failed in words with the next thing to do.
 */
export function AskProgress({
  state,
  onCancel,
  onDismiss,
  onBuild,
}: {
  state: AskState;
  onCancel: () => void;
  onDismiss: () => void;
  /** Offers the guided builder after a failure (the page has it; the editor's panel does not). */
  onBuild?: (() => void) | undefined;
}) {
  if (state.phase === 'idle') return null;
  if (state.phase === 'asking') {
    return (
      <Paper variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {state.question}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <LoadingLine sx={{ color: 'text.secondary', flex: 1 }}>
            {STAGE_WORDS[state.stage]}
            {state.attempt > 1 ? ` (attempt ${state.attempt})` : ''}
          </LoadingLine>
          <Button variant="outlined" color="inherit" size="small" onClick={onCancel}>
            Cancel
          </Button>
        </Box>
        {state.text !== '' ? (
          <Box
            component="pre"
            aria-label="The model’s answer as it arrives"
            sx={{
              m: 0,
              p: 1,
              maxHeight: 160,
              overflow: 'auto',
              ...CODE_TEXT_SX,
            }}
          >
            {state.text}
          </Box>
        ) : undefined}
      </Paper>
    );
  }
  if (state.phase === 'cancelled') {
    return (
      <Alert
        role="none"
        severity="info"
        action={
          <Button color="inherit" size="small" onClick={onDismiss}>
            Close
          </Button>
        }
      >
        <span role="status">
          You cancelled “{state.question}”. No answer was kept: change the question and ask again.
        </span>
      </Alert>
    );
  }
  return <AskFailure error={state.error} onBuild={onBuild} />;
}
