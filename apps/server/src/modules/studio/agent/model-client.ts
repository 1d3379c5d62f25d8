import type { FastifyBaseLogger } from 'fastify';
import OpenAI from 'openai';
import type { AgentConfig } from '../../../config.js';
import { AppError } from '../../../lib/errors.js';
import { agentMessages } from '@dataplatform/contract';

/*
 * The one way the server talks to a model: the official `openai` client on any OpenAI-compatible
 * chat-completions server (AGENT_BASE_URL). The model's answer is text from a stranger: this file
 * only bounds how long and how much of it is read; agent.service.ts checks what it says.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ModelReply {
  /** `choices[0].message.content`, or the concatenated `delta.content` of a stream. */
  content: string;
  /** The server's count of prompt and completion tokens, or an estimate (4 characters a token) when it gives none. */
  tokens: number;
  /** The answer was longer than MODEL_REPLY_MAX_CHARS and was cut off there (it will not parse). */
  truncated: boolean;
}

/** The most of a reply that is read: a plan is a few hundred characters; a model that goes on is stopped. */
export const MODEL_REPLY_MAX_CHARS = 64 * 1024;

export interface ModelClient {
  readonly model: string;
  /**
   * Asks once for an answer that fits `schema`. With `onDelta`, the answer is streamed
   * (`stream: true`) and each piece of text is handed on as it arrives. Throws AppError
   * `agent_unavailable` when the server fails, refuses or takes longer than AGENT_TIMEOUT_SECONDS,
   * and the signal's reason when the caller aborts.
   */
  complete(request: {
    messages: ChatMessage[];
    schema: Record<string, unknown>;
    signal: AbortSignal;
    onDelta?: ((text: string) => void) | undefined;
  }): Promise<ModelReply>;
}

const estimateTokens = (characters: number) => Math.ceil(characters / 4);

export function createModelClient(config: AgentConfig & { baseUrl: string }, log: FastifyBaseLogger): ModelClient {
  const client = new OpenAI({
    baseURL: config.baseUrl,
    // Local servers (Ollama, llama.cpp) need none; the client insists on one.
    apiKey: config.apiKey ?? 'none',
    // One attempt: a failure is the person's to retry, within the time they were promised.
    maxRetries: 0,
    timeout: config.timeoutMs,
  });

  return {
    model: config.model,
    async complete({ messages, schema, signal, onDelta }) {
      const deadline = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        deadline.abort(new Error('agent timeout'));
      }, config.timeoutMs);
      const stop = () => deadline.abort(signal.reason);
      signal.addEventListener('abort', stop, { once: true });
      // A listener added to a signal already aborted is never called: a call after the client left stops here.
      if (signal.aborted) stop();
      const promptCharacters = messages.reduce((sum, message) => sum + message.content.length, 0);
      const body = {
        model: config.model,
        messages,
        response_format: {
          type: 'json_schema' as const,
          json_schema: { name: 'agent_answer', strict: true, schema },
        },
        temperature: 0,
      };
      try {
        if (!onDelta) {
          const completion = await client.chat.completions.create(body, { signal: deadline.signal });
          const content = completion.choices[0]?.message?.content ?? '';
          const truncated = content.length > MODEL_REPLY_MAX_CHARS;
          return {
            content: truncated ? content.slice(0, MODEL_REPLY_MAX_CHARS) : content,
            tokens: completion.usage?.total_tokens ?? estimateTokens(promptCharacters + content.length),
            truncated,
          };
        }
        const stream = await client.chat.completions.create(
          { ...body, stream: true, stream_options: { include_usage: true } },
          { signal: deadline.signal },
        );
        let content = '';
        let tokens: number | undefined;
        let truncated = false;
        for await (const chunk of stream) {
          if (chunk.usage?.total_tokens !== undefined) tokens = chunk.usage.total_tokens;
          const piece = chunk.choices[0]?.delta?.content;
          if (typeof piece !== 'string' || piece === '') continue;
          if (content.length + piece.length > MODEL_REPLY_MAX_CHARS) {
            truncated = true;
            content += piece.slice(0, MODEL_REPLY_MAX_CHARS - content.length);
            stream.controller.abort();
            break;
          }
          content += piece;
          onDelta(piece);
        }
        // The SDK ends an aborted stream's loop quietly: what came so far is no answer. The client's
        // leaving or the deadline is told as any failure of the call is (below).
        if (deadline.signal.aborted) throw new Error('the model call was stopped');
        return { content, tokens: tokens ?? estimateTokens(promptCharacters + content.length), truncated };
      } catch (error) {
        if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('cancelled');
        const status: unknown = error instanceof OpenAI.APIError ? error.status : undefined;
        // The key is in the client, never in what is logged: only the status and the error's class.
        log.warn(
          { status, error: error instanceof Error ? error.name : typeof error, timedOut },
          'the agent model server failed',
        );
        throw new AppError('agent_unavailable', agentMessages.unavailable, { 'Retry-After': '5' });
      } finally {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
      }
    },
  };
}
