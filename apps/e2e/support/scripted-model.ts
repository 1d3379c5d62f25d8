import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ScriptedReply, writeScriptedReply } from '../../server/test/scripted-model.js';

/*
 * A scripted OpenAI-compatible chat-completions server for the browser specs (AGENT.md, "Tests
 * without a model"). It writes its answers with the server tests' writeScriptedReply
 * (apps/server/test/scripted-model.ts), so both speak the same wire format. The specs run in other
 * processes and in parallel, so replies are scripted over HTTP per *marker*: a word the spec puts in
 * its question. A completion is answered from the queue of the marker that the latest user message
 * holding one names (a repair's "That answer was refused" holds none, so it is answered from the
 * same question's queue).
 */

interface ChatBody {
  model: string;
  stream?: boolean;
  messages: { role: string; content: string }[];
}

interface Script {
  queue: ScriptedReply[];
  /** The requests answered for this marker. */
  requests: ChatBody[];
  /** Streams or delays of this marker whose client went away. */
  gone: number;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface ScriptedModelServer {
  /** The `/v1` URL for AGENT_BASE_URL; the specs script it at `${url}/__script`. */
  url: string;
  close(): Promise<void>;
}

export async function startScriptedModel(): Promise<ScriptedModelServer> {
  const scripts = new Map<string, Script>();
  const open = new Set<ServerResponse>();
  const scriptOf = (marker: string) => {
    let script = scripts.get(marker);
    if (!script) {
      script = { queue: [], requests: [], gone: 0 };
      scripts.set(marker, script);
    }
    return script;
  };

  async function complete(body: ChatBody, response: ServerResponse) {
    const users = body.messages.filter((message) => message.role === 'user').reverse();
    const marker = users
      .map((message) => [...scripts.keys()].find((key) => message.content.includes(key)))
      .find((found) => found !== undefined);
    const script = marker === undefined ? undefined : scripts.get(marker);
    script?.requests.push(body);
    const reply: ScriptedReply = script?.queue.shift() ?? {
      content: { kind: 'reply', text: 'The script has no more answers.' },
    };
    let gone = false;
    response.once('close', () => {
      if (!response.writableFinished) {
        gone = true;
        if (script) script.gone += 1;
      }
    });
    await writeScriptedReply(reply, body, response, { gone: () => gone, endlessChunkDelayMs: 50 });
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const text = await bodyOf(request);
    if (request.method === 'POST' && url.pathname === '/v1/__script') {
      const { marker, replies } = JSON.parse(text) as { marker: string; replies: ScriptedReply[] };
      scriptOf(marker).queue.push(...replies);
      response.writeHead(204).end();
      return;
    }
    if (request.method === 'GET' && url.pathname === '/v1/__script') {
      const script = scriptOf(url.searchParams.get('marker') ?? '');
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ requests: script.requests, gone: script.gone, queued: script.queue.length }));
      return;
    }
    if (request.method === 'POST' && url.pathname.endsWith('/chat/completions')) {
      await complete(JSON.parse(text) as ChatBody, response);
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
  }

  const server = createServer((request, response) => {
    open.add(response);
    response.once('close', () => open.delete(response));
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    async close() {
      for (const response of open) response.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
