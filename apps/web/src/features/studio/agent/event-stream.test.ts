import { describe, expect, it } from 'vitest';
import { readEvents, type StreamEvent } from './event-stream.js';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function all(chunks: string[]): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of readEvents(streamOf(chunks))) events.push(event);
  return events;
}

describe('readEvents', () => {
  it('reads named events split anywhere across chunks', async () => {
    const text = 'event: delta\ndata: {"text":"Hel"}\n\nevent: stage\ndata: {"stage":"checking","attempt":1}\n\n';
    const chunks = text.match(/.{1,7}/gs) ?? [];
    expect(await all(chunks)).toEqual([
      { event: 'delta', data: '{"text":"Hel"}' },
      { event: 'stage', data: '{"stage":"checking","attempt":1}' },
    ]);
  });

  it('joins data lines, skips comments and reads a last event without its blank line', async () => {
    expect(await all([': ping\n\ndata: a\ndata: b\n\nevent: answer\ndata: {}'])).toEqual([
      { event: 'message', data: 'a\nb' },
      { event: 'answer', data: '{}' },
    ]);
  });

  it('reads CRLF line ends', async () => {
    expect(await all(['event: error\r\ndata: {"code":"x"}\r\n\r\n'])).toEqual([
      { event: 'error', data: '{"code":"x"}' },
    ]);
  });
});
