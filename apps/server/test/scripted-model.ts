import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A scripted OpenAI-compatible chat-completions server (AGENT.md, "Tests without a model"): real
 * HTTP and the real wire format, one JSON completion or `text/event-stream` chunks as the request
 * asks. It answers from a queue of chosen replies and records every request, so a test can say
 * what the prompt held and what it did not.
 */

export interface ScriptedReply {
  /** The answer's text (`choices[0].message.content`); an object is sent as its JSON. */
  content?: string | object;
  /** Answer with this status and an OpenAI-shaped error body instead. */
  status?: number;
  /** Wait this long before answering (a model that is slow, or never answers in time). */
  delayMs?: number;
  /** Stream chunks for ever (until the client goes away). */
  endless?: boolean;
  /** Characters per streamed chunk (default 16). */
  chunk?: number;
  /** Milliseconds between streamed chunks (default 0). */
  chunkDelayMs?: number;
  /** The usage the server reports (default: prompt 100, completion 20). */
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface RecordedRequest {
  /** performance.now() when the first piece of the answer's text was written (a streamed answer). */
  firstContentAt?: number;
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    stream?: boolean;
    messages: { role: string; content: string }[];
    response_format?: {
      type: string;
      json_schema?: { name: string; strict?: boolean; schema: Record<string, unknown> };
    };
  };
}

export interface ScriptedModel {
  /** The `/v1` URL to give AGENT_BASE_URL. */
  url: string;
  requests: RecordedRequest[];
  /** Queues replies, answered in order; an empty queue answers a reply saying so. */
  script(...replies: ScriptedReply[]): void;
  /** Forgets the queue and the recorded requests. */
  reset(): void;
  /** Resolves when the client of a streamed or delayed answer went away. */
  clientGone(): Promise<void>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startScriptedModel(): Promise<ScriptedModel> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  let goneWaiters: (() => void)[] = [];
  const open = new Set<ServerResponse>();

  async function answer(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'];
    const recorded: RecordedRequest = { path: request.url, headers: request.headers, body };
    requests.push(recorded);
    const reply: ScriptedReply = queue.shift() ?? {
      content: { kind: 'reply', text: 'The script has no more answers.' },
    };
    let gone = false;
    response.once('close', () => {
      gone = true;
      const waiters = goneWaiters;
      goneWaiters = [];
      for (const waiter of waiters) waiter();
    });
    await writeScriptedReply(reply, body, response, {
      gone: () => gone,
      endlessChunkDelayMs: 5,
      onContent: () => (recorded.firstContentAt ??= performance.now()),
    });
  }

  const server = createServer((request, response) => {
    open.add(response);
    response.once('close', () => open.delete(response));
    answer(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...replies) => queue.push(...replies),
    reset() {
      queue.length = 0;
      requests.length = 0;
    },
    clientGone: () => new Promise<void>((resolve) => goneWaiters.push(resolve)),
    async close() {
      for (const response of open) response.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** How writeScriptedReply learns that the client went away, and what it tells of the answer. */
export interface ReplyWriting {
  /** Whether the client went away: the answer stops there. */
  gone(): boolean;
  /** Milliseconds between an endless reply's chunks when it names none. */
  endlessChunkDelayMs: number;
  /** Called as each piece of a streamed answer's text is written. */
  onContent?(): void;
}

/**
 * Writes one scripted reply in the real wire format: an OpenAI-shaped error, one JSON completion,
 * or `text/event-stream` chunks as the request asks. The server tests' model above and the browser
 * specs' (apps/e2e/support/scripted-model.ts) answer through it, so both speak the same format.
 */
export async function writeScriptedReply(
  reply: ScriptedReply,
  body: { model: string; stream?: boolean },
  response: ServerResponse,
  writing: ReplyWriting,
): Promise<void> {
  if (reply.delayMs) await sleep(reply.delayMs);
  if (writing.gone()) return;
  if (reply.status) {
    response
      .writeHead(reply.status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: `scripted ${reply.status}`, type: 'server_error' } }));
    return;
  }
  const content = typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content ?? {});
  const usage = reply.usage ?? { prompt_tokens: 100, completion_tokens: 20 };
  const totals = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
  const base = { id: 'chatcmpl-scripted', created: Math.floor(Date.now() / 1000), model: body.model };
  if (!body.stream) {
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: totals,
      }),
    );
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (delta: Record<string, unknown>) =>
    response.write(
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`,
    );
  send({ role: 'assistant', content: '' });
  if (reply.endless) {
    while (!writing.gone()) {
      send({ content: 'and on ' });
      await sleep(reply.chunkDelayMs ?? writing.endlessChunkDelayMs);
    }
    return;
  }
  const size = reply.chunk ?? 16;
  for (let index = 0; index < content.length && !writing.gone(); index += size) {
    writing.onContent?.();
    send({ content: content.slice(index, index + size) });
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
  }
  if (writing.gone()) return;
  response.write(
    `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage: totals })}\n\n`,
  );
  response.end('data: [DONE]\n\n');
}
