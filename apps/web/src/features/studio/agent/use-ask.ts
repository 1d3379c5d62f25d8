import type { AgentMessage, AgentStage } from '@dataplatform/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-error.js';
import { askAgent } from '../api/agent.js';

/** Where a question is, from sent to answered (or not). */
export type AskState =
  | { phase: 'idle' }
  | { phase: 'asking'; question: string; text: string; stage: AgentStage; attempt: number }
  | { phase: 'cancelled'; question: string }
  | { phase: 'failed'; question: string; error: unknown };

/**
 * Asking the agent with the answer streamed: the model's text and the server's steps as they come,
 * Cancel (the fetch aborted: the server stops the model), and what went wrong when it did.
 * `onAnswer` gets the checked answer; the state returns to idle once it has settled.
 */
export function useAsk(onAnswer: (message: AgentMessage & { conversation: string }) => Promise<void> | void) {
  const [state, setState] = useState<AskState>({ phase: 'idle' });
  const controller = useRef<AbortController | undefined>(undefined);
  const answered = useRef(onAnswer);
  useEffect(() => {
    answered.current = onAnswer;
  });
  // Leaving the screen stops a question on its way.
  useEffect(() => () => controller.current?.abort(), []);

  const ask = useCallback(async (conversation: () => Promise<string>, question: string, reportId?: string) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setState({ phase: 'asking', question, text: '', stage: 'asking', attempt: 1 });
    try {
      const conversationId = await conversation();
      const message = await askAgent(
        conversationId,
        { text: question, ...(reportId ? { report_id: reportId } : {}) },
        abort.signal,
        {
          onDelta: (text) =>
            setState((current) => (current.phase === 'asking' ? { ...current, text: current.text + text } : current)),
          onStage: (stage, attempt) =>
            setState((current) =>
              current.phase === 'asking'
                ? { ...current, stage, attempt, text: stage === 'repairing' ? '' : current.text }
                : current,
            ),
        },
      );
      await answered.current({ ...message, conversation: conversationId });
      if (controller.current === abort) setState({ phase: 'idle' });
    } catch (error) {
      if (controller.current !== abort) return;
      if (abort.signal.aborted || (error instanceof ApiError && error.isAborted)) {
        setState({ phase: 'cancelled', question });
      } else {
        setState({ phase: 'failed', question, error });
      }
    }
  }, []);

  const cancel = useCallback(() => controller.current?.abort(), []);
  const dismiss = useCallback(() => setState({ phase: 'idle' }), []);
  return { state, ask, cancel, dismiss };
}
