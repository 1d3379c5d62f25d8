/** One server-sent event: its name (`message` when it gave none) and its data lines joined. */
export interface StreamEvent {
  event: string;
  data: string;
}

/** The events of one block of text (what lies between two blank lines), per the EventSource rules. */
function eventOf(block: string): StreamEvent | undefined {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r\n|\r|\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? undefined : { event, data: data.join('\n') };
}

/**
 * The server-sent events of a fetch body as they arrive (fetch's stream, not EventSource: the agent's
 * questions are POSTs with a bearer token). Ends with the stream; a cancelled fetch rejects.
 */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end = /\r?\n\r?\n/.exec(buffer);
      while (end) {
        const found = eventOf(buffer.slice(0, end.index));
        buffer = buffer.slice(end.index + end[0].length);
        if (found) yield found;
        end = /\r?\n\r?\n/.exec(buffer);
      }
    }
    buffer += decoder.decode();
    const last = eventOf(buffer);
    if (last) yield last;
  } finally {
    reader.releaseLock();
  }
}
