import {
  type AgentCompile,
  type AgentCompiled,
  type AgentConversation,
  type AgentConversations,
  type AgentMessage,
  type AgentRun,
  type AgentStage,
  type AgentStatus,
  type ReportRunResult,
} from '@dataplatform/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { ApiError } from '../../../lib/api-error.js';
import { myTenantsQueryOptions } from '../../../lib/my-tenants.js';
import { prefetchForSignedIn } from '../../../lib/query-client.js';
import { readEvents } from '../agent/event-stream.js';
import { blockRunBehaviour } from './reports.js';
import { sourcesQueryOptions } from './sources.js';

/** Conversations a page of the list shows. */
export const CONVERSATIONS_PAGE_SIZE = 20;

export const agentKeys = {
  all: ['agent'] as const,
  status: ['agent', 'status'] as const,
  conversations: ['agent', 'conversations'] as const,
  conversation: (id: string) => ['agent', 'conversation', id] as const,
  compile: (request: AgentCompile) => ['agent', 'compile', request] as const,
  run: (conversationId: string, messageId: string, request: AgentRun) =>
    ['agent', 'run', conversationId, messageId, request] as const,
};

/** `GET /agent/status`: whether a model is configured, and whether the caller may use the agent. */
export function agentStatusQueryOptions() {
  return queryOptions({
    queryKey: agentKeys.status,
    queryFn: ({ signal }) => apiRequest<AgentStatus>({ path: '/agent/status', signal }),
    staleTime: 60_000,
    meta: { errorToast: false },
  });
}

/** `GET /agent/conversations`: the caller's conversations in the tenant, the latest first. */
export function conversationsQueryOptions(enabled: boolean) {
  return queryOptions({
    queryKey: agentKeys.conversations,
    queryFn: ({ signal }) =>
      apiRequest<AgentConversations>({
        path: '/agent/conversations',
        query: { skip: 0, limit: CONVERSATIONS_PAGE_SIZE },
        signal,
      }),
    enabled,
    meta: { errorToast: false },
  });
}

/** `GET /agent/conversations/{id}`: one conversation with its messages. */
export function conversationQueryOptions(id: string) {
  return queryOptions({
    queryKey: agentKeys.conversation(id),
    queryFn: ({ signal }) =>
      apiRequest<AgentConversation>({ path: `/agent/conversations/${encodeURIComponent(id)}`, signal }),
    meta: { errorToast: false },
    retry: false,
  });
}

/** `POST /agent/conversations`: a new conversation, titled with its first question. */
export function createConversation(title: string): Promise<{ id: string; title: string }> {
  return apiRequest({ method: 'POST', path: '/agent/conversations', json: { title: title.slice(0, 200) } });
}

export function useDeleteConversation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<undefined>({ method: 'DELETE', path: `/agent/conversations/${encodeURIComponent(id)}` }),
    meta: { errorText: 'The conversation could not be deleted' },
    onSuccess: async (_, id) => {
      client.removeQueries({ queryKey: agentKeys.conversation(id) });
      await client.invalidateQueries({ queryKey: agentKeys.conversations });
    },
  });
}

/** `POST /agent/plan/compile`: the guided builder's plan as SQL, a block and a preview. No model. */
export function compileQueryOptions(request: AgentCompile) {
  return queryOptions({
    queryKey: agentKeys.compile(request),
    queryFn: ({ signal }) =>
      apiRequest<AgentCompiled>({ method: 'POST', path: '/agent/plan/compile', json: request, signal }),
    placeholderData: keepPreviousData,
    // The builder says what the compiler refused beside the preview.
    meta: { errorToast: false },
    retry: (failures, error) => error instanceof ApiError && error.status === 429 && failures < 3,
    retryDelay: (failures) => Math.min(4_000, 500 * 2 ** failures),
    staleTime: 60_000,
  });
}

/** `POST …/messages/{id}/run`: an answer's block run again (a table's page, a chart's rows). */
export function runAnswerQueryOptions(conversationId: string, messageId: string, request: AgentRun) {
  return queryOptions({
    queryKey: agentKeys.run(conversationId, messageId, request),
    queryFn: ({ signal }) =>
      apiRequest<ReportRunResult>({
        method: 'POST',
        path: `/agent/conversations/${encodeURIComponent(conversationId)}/messages/${encodeURIComponent(messageId)}/run`,
        json: request,
        signal,
      }),
    ...blockRunBehaviour,
  });
}

/** What an asking screen hears while the answer is made. */
export interface AskEvents {
  /** The model's text so far grew by `text`. */
  onDelta: (text: string) => void;
  /** The server moved on to a step of its checks. */
  onStage: (stage: AgentStage, attempt: number) => void;
}

/** An `error` event: the server's refusal after the stream started, as an ApiError of the same code. */
function streamError(url: string, data: { detail?: unknown; code?: unknown }): ApiError {
  const status = data.code === 'agent_refused' ? 422 : data.code === 'agent_unavailable' ? 502 : 500;
  return new ApiError({ url, status, statusText: '', body: { detail: data.detail, code: data.code } });
}

/**
 * `POST /agent/conversations/{id}/messages` with `Accept: text/event-stream`: the answer, with the
 * model's text and the server's steps told as they come. Rejects with an ApiError (aborted when
 * `signal` is).
 */
export async function askAgent(
  conversationId: string,
  question: { text: string; report_id?: string },
  signal: AbortSignal,
  events: AskEvents,
): Promise<AgentMessage> {
  const path = `/agent/conversations/${encodeURIComponent(conversationId)}/messages`;
  const body = await apiRequest<ReadableStream<Uint8Array>>({
    method: 'POST',
    path,
    json: question,
    signal,
    responseType: 'stream',
  });
  try {
    for await (const event of readEvents(body)) {
      const data = JSON.parse(event.data) as Record<string, unknown>;
      if (event.event === 'delta') events.onDelta(typeof data.text === 'string' ? data.text : '');
      else if (event.event === 'stage') events.onStage(data.stage as AgentStage, Number(data.attempt ?? 1));
      else if (event.event === 'answer') return data as unknown as AgentMessage;
      else if (event.event === 'error') throw streamError(path, data);
    }
  } catch (error) {
    if (signal.aborted) throw ApiError.aborted(path);
    throw error;
  }
  if (signal.aborted) throw ApiError.aborted(path);
  throw new ApiError({
    url: path,
    status: 502,
    statusText: '',
    body: { detail: 'The answer stopped before it ended: ask again.', code: 'agent_unavailable' },
  });
}

/** Starts the page's first queries (the status, the caller's tenants, the sources) while its code loads. */
export function prefetchAgentPage(): null {
  return prefetchForSignedIn((client) => [
    client.prefetchQuery(agentStatusQueryOptions()),
    client.prefetchQuery(myTenantsQueryOptions()),
    client.prefetchQuery(sourcesQueryOptions()),
  ]);
}
